import Foundation

/// Browser sessions at the provider (single sign-on): who signed in in this browser, and when.
///
/// The cookie holds 256 random bits; the store keeps only their SHA-256, so a copy of the database opens no session.
public protocol BrowserSessionStore: Sendable {
    /// Stores a new session (by the hash of its cookie value).
    func insertBrowserSession(_ session: BrowserSessionRecord) async throws(StorageError)
    /// The session with this hash, if it has not expired at `now`.
    func browserSession(idHash: Data, now: Date) async throws(StorageError) -> BrowserSessionRecord?
    /// Ends the session; returns whether it existed.
    @discardableResult
    func deleteBrowserSession(idHash: Data) async throws(StorageError) -> Bool
    /// Deletes the session as ``deleteBrowserSession(idHash:)`` does, writing `events` with it in one unit when there
    /// was one (a sign-out's `session.ended`).
    func deleteBrowserSession(idHash: Data, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
    /// Signs `subject` out everywhere: deletes their browser sessions, grants (so their refresh and access tokens),
    /// authorization codes and device authorizations, with `events` in the same unit; returns whether the user exists
    /// (the events are written only then).
    @discardableResult
    func deleteEverySession(subject: String, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    /// Deletes sessions that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredBrowserSessions(before date: Date) async throws(StorageError) -> Int
}

/// A signed-in browser.
public struct BrowserSessionRecord: Sendable, Equatable {
    /// SHA-256 of the cookie value.
    public var idHash: Data
    /// The signed-in user (the OIDC subject).
    public var subject: String
    /// When the user last authenticated (the ID token's `auth_time`).
    public var authTime: Date
    /// When the session ends, whatever happens.
    public var expiresAt: Date
    /// How the user authenticated then (the ID token's `amr`).
    public var methods: AuthenticationMethods

    /// Creates a browser session record.
    public init(
        idHash: Data, subject: String, authTime: Date, expiresAt: Date, methods: AuthenticationMethods = .init()
    ) {
        self.idHash = idHash
        self.subject = subject
        self.authTime = authTime
        self.expiresAt = expiresAt
        self.methods = methods
    }
}
