import Foundation
import LimenServerStorage

/// A user's sessions for an admin: listed, and all ended at once (signed out everywhere), the change recorded as
/// `admin.sessions_revoked` from its origin in the change's unit.
public struct AdminUserSessions: Sendable {
    /// What a user is signed in with: their live grants (one per app session, with its refresh token) and browser
    /// sessions (single sign-on on the hosted pages).
    public struct Sessions: Sendable, Equatable {
        /// The grants neither revoked nor expired, newest first.
        public var grants: [GrantRecord]
        /// The unexpired browser sessions, the latest sign-in first.
        public var browserSessions: [BrowserSessionRecord]
    }

    private let store: any UserSessionStore & BrowserSessionStore
    private let events: SecurityEventRecorder
    private let now: @Sendable () -> Date

    /// Creates the service over a store; each change is recorded by `events` (by default, on and stamped by `now`).
    public init(
        store: any UserSessionStore & BrowserSessionStore, now: @escaping @Sendable () -> Date,
        events: SecurityEventRecorder? = nil
    ) {
        self.store = store
        self.now = now
        self.events = events ?? SecurityEventRecorder(now: now)
    }

    /// The live sessions of the user with subject `userID` (none for an unknown user).
    public func sessions(of userID: String) async throws(StorageError) -> Sessions {
        let date = now()
        return Sessions(
            grants: try await store.activeGrants(subject: userID, at: date),
            browserSessions: try await store.browserSessions(subject: userID, now: date))
    }

    /// Signs the user with subject `userID` out everywhere: their grants (so their refresh and access tokens), codes,
    /// device authorizations and browser sessions end; returns whether there is such a user (only then is the change
    /// recorded, even when they had no session).
    @discardableResult
    public func revokeAll(of userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let revoked = SecurityEvent(.adminSessionsRevoked, user: userID)
        return try await store.deleteEverySession(subject: userID, recording: events.records([revoked], from: origin))
    }
}
