import Foundation
import LimenServerStorage

/// Checks an email and password, throttled (``SignInThrottle``): what the sign-in page uses.
///
/// An unknown email and a wrong password are the same error and cost the same work. Each attempt is counted before the
/// password is checked; repeated failures from one client address lock that address out of the email for a while
/// (``SignInLockout``), and repeated failures from anywhere slow the email's sign-ins down (``SignInSlowdown``) without
/// locking its owner out. Counted per email whether or not it has an account, so a lock tells nothing about accounts.
///
/// ```swift
/// let user = try await provider.passwordSignIn.signIn(
///     email: "ADA@example.com ", password: "…", from: RequestOrigin(ip: "203.0.113.7"))
/// ```
package struct PasswordSignIn: Sendable {
    /// Where users are found, and failed attempts recorded (`user.sign_in_failed`).
    package let store: any UserStore & SecurityEventStore
    /// Checks passwords.
    package let hasher: PasswordHasher
    /// Counts and limits attempts.
    package let throttle: SignInThrottle
    /// Stamps the failed attempts' events; `nil` records none.
    package let events: SecurityEventRecorder?

    /// Makes it of its parts.
    package init(
        store: any UserStore & SecurityEventStore, hasher: PasswordHasher, throttle: SignInThrottle,
        events: SecurityEventRecorder? = nil
    ) {
        self.store = store
        self.hasher = hasher
        self.throttle = throttle
        self.events = events
    }

    /// The user with this email and password, tried from `origin` (its address keys the limits; a failure is recorded
    /// from it, with `client` when a client asked).
    package func signIn(email: String, password: String, from origin: RequestOrigin, client: String? = nil)
        async throws(AccountError) -> UserRecord
    {
        let clientAddress = origin.address
        let email = Accounts.normalise(email)
        // Refused before it is counted, so that a busy server does not lock anyone out.
        guard !hasher.queue.isFull(for: clientAddress) else { throw .busy(retryAfter: PasswordHashingQueue.retryAfter) }
        let attempt: SignInThrottle.Attempt
        do throws(AccountError) {
            attempt = try await throttle.begin(email: email, clientAddress: clientAddress)
        } catch .locked(let seconds) {
            try await recordLockout(email: email, client: client, from: origin)
            throw .locked(retryAfter: seconds)
        }
        defer { attempt.end() }
        let found: UserRecord?
        do {
            found = try await store.user(email: email)
        } catch {
            throw .storage(error)
        }
        guard let user = found, let stored = user.passwordHash else {
            try await hasher.verifyNothing(password, for: clientAddress)
            try await recordFailure(
                user: found?.id, reason: found == nil ? .unknownUser : .wrongPassword, client: client, from: origin)
            throw .invalidCredentials
        }
        guard try await hasher.verify(password, against: stored, for: clientAddress) else {
            try await recordFailure(user: user.id, reason: .wrongPassword, client: client, from: origin)
            throw .invalidCredentials
        }
        try await throttle.succeeded(attempt)
        return user
    }

    /// Records `user.locked_out` for the account of `email`, if there is one: an attempt refused because failures from
    /// its address locked the account for a while (written alone, as it changes nothing else).
    private func recordLockout(email: String, client: String?, from origin: RequestOrigin) async throws(AccountError) {
        guard let events else { return }
        do {
            guard let user = try await store.user(email: email) else { return }
            try await store.insertSecurityEvents(
                events.records([SecurityEvent(.userLockedOut, user: user.id, client: client)], from: origin))
        } catch {
            throw .storage(error)
        }
    }

    /// Records `user.sign_in_failed` for `user` (`nil`: no account, or one without a password) with `reason`: an
    /// attempt that changed nothing else, so its event is written alone.
    private func recordFailure(
        user: String?, reason: SignInFailureReason, client: String?, from origin: RequestOrigin
    ) async throws(AccountError) {
        guard let events else { return }
        let records = events.records(
            [SecurityEvent(.userSignInFailed, user: user, client: client, details: .signInFailed(reason: reason))],
            from: origin)
        do {
            try await store.insertSecurityEvents(records)
        } catch {
            throw .storage(error)
        }
    }
}
