import Foundation
import LimenServerStorage

/// Who holds the `admin` role (``UserRole/admin``), which lets a user into the admin console: giving and taking it,
/// each change recorded as `admin.role_granted` or `admin.role_revoked` from its origin, in the change's unit.
public struct AdminRoles: Sendable {
    private let store: any UserRoleStore
    private let events: SecurityEventRecorder
    private let now: @Sendable () -> Date

    /// Creates the service over a store; each change is recorded by `events` (by default, on and stamped by `now`).
    public init(
        store: any UserRoleStore, now: @escaping @Sendable () -> Date, events: SecurityEventRecorder? = nil
    ) {
        self.store = store
        self.now = now
        self.events = events ?? SecurityEventRecorder(now: now)
    }

    /// Gives the user with subject `userID` the admin role; returns whether it was given now (`false`: no such user,
    /// or they hold it already, and nothing is recorded).
    @discardableResult
    public func grant(to userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let event = SecurityEvent(.adminRoleGranted, user: userID, details: .role(.admin))
        return try await store.grantRole(
            .admin, to: userID, at: now(), recording: events.records([event], from: origin))
    }

    /// Takes the admin role from the user with subject `userID`; returns whether they held it.
    @discardableResult
    public func revoke(from userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let event = SecurityEvent(.adminRoleRevoked, user: userID, details: .role(.admin))
        return try await store.revokeRole(.admin, from: userID, recording: events.records([event], from: origin))
    }

    /// Whether the user with subject `userID` holds the admin role.
    public func isAdmin(_ userID: String) async throws(StorageError) -> Bool {
        try await store.roles(of: userID).contains(.admin)
    }

    /// The subjects of every admin.
    public func admins() async throws(StorageError) -> Set<String> {
        try await store.userIDs(holding: .admin)
    }
}
