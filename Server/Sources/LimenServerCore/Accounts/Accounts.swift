import Foundation
import LimenServerStorage
import LimenWire

/// Creating and changing accounts: what the sign-up page, the admin API and `limen-server users` use. Signing in is
/// ``PasswordSignIn``.
///
/// ```swift
/// let user = try await provider.accounts.signUp(email: "ada@example.com", password: "…", name: "Ada")
/// ```
public struct Accounts: Sendable {
    /// Passwords shorter than this are refused (NIST SP 800-63B §5.1.1.2).
    public static let minimumPasswordLength = 8
    /// Longer passwords are refused, so hashing stays bounded.
    public static let maximumPasswordLength = 1024
    /// Longer display names are refused: a name goes into every ID token and userinfo answer.
    public static let maximumNameLength = 256
    /// Longer email addresses are refused (RFC 5321 §4.5.3.1: a path holds at most 256 octets, 254 of address).
    public static let maximumEmailLength = 254

    private let store: any UserStore & AdministrationStore
    private let hasher: PasswordHasher
    private let now: @Sendable () -> Date
    /// Stamps the events of changes (the flows' too).
    package let events: SecurityEventRecorder

    /// Creates the service over a store; each change is recorded by `events` (by default, on and stamped by `now`).
    public init(
        store: any UserStore & AdministrationStore, hasher: PasswordHasher, now: @escaping @Sendable () -> Date,
        events: SecurityEventRecorder? = nil
    ) {
        self.store = store
        self.hasher = hasher
        self.now = now
        self.events = events ?? SecurityEventRecorder(now: now)
    }

    /// Creates an account with a password; the email is normalised and must be free. Asked for from `clientAddress`
    /// (`nil`: the admin API, the command line), whose hashing holds at most its share of the queue. Recorded as
    /// `user.created` from `origin` (and `admin.user_created` when an actor made it).
    public func signUp(
        email: String,
        password: String,
        name: String?,
        emailVerified: Bool = false,
        from clientAddress: String? = nil,
        origin: RequestOrigin
    ) async throws(AccountError) -> UserRecord {
        let (email, name) = try Self.checked(email: email, password: password, name: name)
        let user = UserRecord(
            id: RandomToken.make(byteCount: 16),
            email: email,
            emailVerified: emailVerified,
            name: name,
            passwordHash: try await hasher.hash(password, for: clientAddress),
            createdAt: now()
        )
        let created = SecurityEvent(.userCreated, user: user.id, details: .signIn(method: .password))
        let records = events.records(origin.events(created, admin: .adminUserCreated), from: origin)
        let inserted = try await storage { () throws(StorageError) in
            try await store.insertUserIfAbsent(user, recording: records)
        }
        guard inserted else {
            throw .emailTaken
        }
        return user
    }

    /// The address and name as they would be stored, and the password's hash (`nil` without a password), checked as
    /// a sign-up checks them: for linking them to an existing user, asked for from `clientAddress`.
    package func checkedCredentials(
        email: String,
        password: String?,
        name: String?,
        from clientAddress: String
    ) async throws(AccountError) -> (email: String, name: String?, passwordHash: String?) {
        guard let password else {
            let email = Self.normalise(email)
            guard Self.isPlausibleEmail(email) else { throw .invalidEmail }
            return (email, try Self.displayName(name), nil)
        }
        let (email, name) = try Self.checked(email: email, password: password, name: name)
        return (email, name, try await hasher.hash(password, for: clientAddress))
    }

    /// Creates an anonymous user: a new subject with no email, password or identity (``AuthLevel/guest``); recorded as
    /// `user.created` from `origin`.
    public func createAnonymous(origin: RequestOrigin) async throws(AccountError) -> UserRecord {
        let user = UserRecord(id: RandomToken.make(byteCount: 16), email: nil, createdAt: now())
        let records = events.records(
            [SecurityEvent(.userCreated, user: user.id, details: .signIn(method: .anonymous))], from: origin)
        let inserted = try await storage { () throws(StorageError) in
            try await store.insertUserIfAbsent(user, recording: records)
        }
        guard inserted else {
            throw .storage(.queryFailed("a new user ID was taken"))
        }
        return user
    }

    /// Deletes the account `userID` with everything it owns: grants (so every refresh and access token), browser
    /// sessions, codes, consents, profile, identities and Apple account. Every deletion goes this way (the account
    /// page, the admin API and `DELETE /v1/me` through ``AccountRemoval/deleteAccount(userID:logger:)``, which revokes Apple's
    /// token first); returns whether there was such a user. Recorded as `user.deleted` from `origin` (and
    /// `admin.user_deleted` when an actor made it).
    @discardableResult
    public func delete(userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let deleted = SecurityEvent(.userDeleted, user: userID)
        return try await store.deleteUser(
            id: userID, recording: events.records(origin.events(deleted, admin: .adminUserDeleted), from: origin))
    }

    /// Applies `changes` to the account with subject `id` and returns it as stored, or `nil` when there is none. A new
    /// password is checked like a sign-up's; setting it ends the user's sessions, grants and codes (``UserStore``). Asked
    /// for from `clientAddress` (`nil`: the admin API, the command line), whose hashing holds at most its share.
    /// Recorded from `origin`: `user.password_changed`, `user.verified`, and `admin.user_updated` (the fields' names)
    /// when an actor made it.
    public func update(
        id: String,
        _ changes: AccountChanges,
        from clientAddress: String? = nil,
        origin: RequestOrigin
    ) async throws(AccountError) -> UserRecord? {
        guard var user = try await storage({ () throws(StorageError) in try await store.user(id: id) }) else {
            return nil
        }
        let wasVerified = user.emailVerified
        if let name = changes.name { user.name = try Self.displayName(name) }
        if let emailVerified = changes.emailVerified { user.emailVerified = emailVerified }
        if let password = changes.password {
            if let problem = Self.passwordProblem(password, email: user.email ?? "") { throw .weakPassword(problem) }
            user.passwordHash = try await hasher.hash(password, for: clientAddress)
        }
        let stored = user
        let records = events.records(
            Self.events(of: changes, to: stored, wasVerified: wasVerified, origin: origin), from: origin)
        guard
            try await storage({ () throws(StorageError) in try await store.updateUser(stored, recording: records) })
        else { return nil }
        return stored
    }

    /// The events of `changes` made to `user`, whose email was verified before when `wasVerified`.
    private static func events(
        of changes: AccountChanges, to user: UserRecord, wasVerified: Bool, origin: RequestOrigin
    ) -> [SecurityEvent] {
        var events: [SecurityEvent] = []
        var fields: Set<SecurityEventDetails.ChangedField> = []
        if changes.password != nil {
            events.append(SecurityEvent(.userPasswordChanged, user: user.id))
            fields.insert(.password)
        }
        if changes.emailVerified != nil {
            if user.emailVerified, !wasVerified { events.append(SecurityEvent(.userVerified, user: user.id)) }
            fields.insert(.emailVerified)
        }
        if changes.name != nil { fields.insert(.name) }
        if origin.actor != nil {
            events.append(SecurityEvent(.adminUserUpdated, user: user.id, details: .changed(fields)))
        }
        return events
    }

    /// Runs a store call, reporting its failure as an account error.
    private func storage<Value>(
        _ body: () async throws(StorageError) -> Value
    ) async throws(AccountError) -> Value {
        do {
            return try await body()
        } catch {
            throw .storage(error)
        }
    }

    /// The rules of a new account's fields, checked without writing anything: the email normalised and the name as
    /// they would be stored. A flow checks them before it spends the code that proves the address.
    package static func checked(
        email: String,
        password: String,
        name: String?
    ) throws(AccountError) -> (email: String, name: String?) {
        let email = normalise(email)
        guard isPlausibleEmail(email) else { throw .invalidEmail }
        let name = try displayName(name)
        if let problem = passwordProblem(password, email: email) { throw .weakPassword(problem) }
        return (email, name)
    }

    /// A display name trimmed, or `nil` when nothing is left; `.fieldTooLong` past ``maximumNameLength`` characters
    /// (or four times as many UTF-8 bytes, so combining marks cannot stack without bound).
    package static func displayName(_ name: String?) throws(AccountError) -> String? {
        guard let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumNameLength, trimmed.utf8.count <= 4 * maximumNameLength else {
            throw .fieldTooLong(field: "name", maximum: maximumNameLength)
        }
        return trimmed
    }

    /// Trimmed and lower-cased.
    public static func normalise(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// One `@`, something before it, a dot-separated domain after it, no spaces, at most 254 bytes.
    package static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= maximumEmailLength, parts.count == 2, !parts[0].isEmpty,
            !email.contains(where: \.isWhitespace)
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// Why `password` is refused, or `nil` (length rules only, as NIST advises; never composition rules).
    static func passwordProblem(_ password: String, email: String) -> String? {
        if password.count < minimumPasswordLength {
            return "Use at least \(minimumPasswordLength) characters for your password."
        }
        if password.count > maximumPasswordLength || password.utf8.count > 4 * maximumPasswordLength {
            return "Use at most \(maximumPasswordLength) characters for your password."
        }
        if password.lowercased() == email { return "Your password cannot be your email address." }
        return nil
    }
}
