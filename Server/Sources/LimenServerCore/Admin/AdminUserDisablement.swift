import Foundation
import LimenServerStorage

/// Disabling a user, who then can neither sign in nor refresh, and enabling them again: each change recorded as
/// `admin.user_disabled` or `admin.user_enabled` from its origin, in the change's unit. Disabling also ends the user's
/// browser sessions, grants, authorization codes and device authorizations, in the same unit.
public struct AdminUserDisablement: Sendable {
    private let store: any Store
    private let events: SecurityEventRecorder
    private let now: @Sendable () -> Date

    /// Creates the service over a store; each change is recorded by `events` (by default, on and stamped by `now`).
    public init(store: any Store, now: @escaping @Sendable () -> Date, events: SecurityEventRecorder? = nil) {
        self.store = store
        self.now = now
        self.events = events ?? SecurityEventRecorder(now: now)
    }

    /// Disables the user with subject `userID` and ends their sessions and grants; returns whether they were disabled
    /// now (`false`: no such user, or disabled already, and nothing is recorded).
    @discardableResult
    public func disable(_ userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let date = now()
        let event = SecurityEvent(.adminUserDisabled, user: userID)
        return try await store.disableUser(userID, at: date, recording: events.records([event], from: origin))
    }

    /// Enables the user with subject `userID` again; returns whether they were disabled.
    @discardableResult
    public func enable(_ userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let event = SecurityEvent(.adminUserEnabled, user: userID)
        return try await store.enableUser(userID, recording: events.records([event], from: origin))
    }

    /// Whether the user with subject `userID` is disabled.
    public func isDisabled(_ userID: String) async throws(StorageError) -> Bool {
        try await store.disabledAt(userID: userID) != nil
    }
}
