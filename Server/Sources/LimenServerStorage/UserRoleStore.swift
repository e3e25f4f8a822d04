import Foundation

/// A role a user holds beyond signing in, stored by its stable string.
public enum UserRole: String, Sendable, Hashable, CaseIterable {
    /// May sign in to the admin console (hosted pages under `/admin/console`).
    case admin
}

/// The user roles part of the ``Store``: who holds which ``UserRole``. A role goes with its user: deleting the user
/// deletes their roles.
public protocol UserRoleStore: Sendable {
    /// Gives the user with subject `userID` `role`, with `events` when it was given now (one unit: see
    /// ``SecurityEventStore``); returns whether it was: `false` when there is no such user or they hold it already.
    @discardableResult
    func grantRole(_ role: UserRole, to userID: String, at date: Date, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Takes `role` from the user with subject `userID`, with `events` when they held it (one unit); returns whether
    /// they held it.
    @discardableResult
    func revokeRole(_ role: UserRole, from userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// The roles the user with subject `userID` holds (none for an unknown subject).
    func roles(of userID: String) async throws(StorageError) -> Set<UserRole>
    /// The subjects of every user holding `role`.
    func userIDs(holding role: UserRole) async throws(StorageError) -> Set<String>
}
