import Foundation
import LimenServerStorage

/// Browser sessions at the provider: started on sign-in with a fresh random cookie, found from the cookie, ended on
/// sign-out. The store sees only the cookie's SHA-256.
package struct BrowserSessions: Sendable {
    /// How long a session lasts, whatever happens.
    package static let lifetime: TimeInterval = 12 * 3600
    /// The session cookie's name (with the `__Host-` prefix on an HTTPS issuer: ``BrowserCookies/sessionName``).
    package static let cookieName = "limen_session"

    /// Where sessions are kept.
    package let store: any BrowserSessionStore & GrantStore
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(store: any BrowserSessionStore & GrantStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Starts a session for `subject`, authenticated now by `methods`; returns the cookie value and the stored record.
    private func start(subject: String, methods: AuthenticationMethods) async throws(StorageError) -> (
        cookieValue: String, record: BrowserSessionRecord
    ) {
        let value = RandomIdentifier.make()
        let authTime = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        let record = BrowserSessionRecord(
            idHash: RandomIdentifier.hash(value),
            subject: subject,
            authTime: authTime,
            expiresAt: authTime.addingTimeInterval(Self.lifetime),
            methods: methods
        )
        try await store.insertBrowserSession(record)
        return (value, record)
    }

    /// Starts a session for `subject`, who authenticated by `methods`, in place of the one named by `cookieValue` (a
    /// fresh cookie on every sign-in), which ends: grants bound to it move to the new session when the same user
    /// signed in again, and end with it when someone else did.
    package func restart(
        replacing cookieValue: String?,
        subject: String,
        methods: AuthenticationMethods
    ) async throws(StorageError) -> (cookieValue: String, record: BrowserSessionRecord) {
        let started = try await start(subject: subject, methods: methods)
        if let cookieValue, !cookieValue.isEmpty {
            try await store.moveSessionGrants(
                subject: subject, from: RandomIdentifier.hash(cookieValue), to: started.record.idHash)
        }
        try await end(cookieValue: cookieValue)
        return started
    }

    /// The live session named by the cookie value, if any.
    package func current(cookieValue: String?) async throws(StorageError) -> BrowserSessionRecord? {
        guard let cookieValue, !cookieValue.isEmpty else { return nil }
        return try await store.browserSession(idHash: RandomIdentifier.hash(cookieValue), now: now())
    }

    /// Signs the browser out: ends the session named by the cookie value, recorded as `session.ended` from `origin` by
    /// `events` in the same unit; returns whether there was one.
    @discardableResult
    package func signOut(cookieValue: String?, events: SecurityEventRecorder, origin: RequestOrigin)
        async throws(StorageError) -> Bool
    {
        guard let session = try await current(cookieValue: cookieValue) else { return false }
        let ended = SecurityEvent(.sessionEnded, user: session.subject, details: .ended(.loggedOut))
        return try await store.deleteBrowserSession(
            idHash: session.idHash, recording: events.records([ended], from: origin))
    }

    /// Ends the session named by the cookie value; returns whether there was one.
    @discardableResult
    package func end(cookieValue: String?) async throws(StorageError) -> Bool {
        guard let cookieValue, !cookieValue.isEmpty else { return false }
        return try await store.deleteBrowserSession(idHash: RandomIdentifier.hash(cookieValue))
    }
}
