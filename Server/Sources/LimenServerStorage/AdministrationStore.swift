import Foundation

/// What the admin API needs of the ``Store`` beyond clients and users: its bearer token's hash, a page of users and
/// removing a user with everything issued to them.
public protocol AdministrationStore: Sendable {
    /// SHA-256 of the admin API's bearer token; `nil` when none is configured (the API is off).
    func adminTokenHash() async throws(StorageError) -> Data?
    /// Replaces the admin token's hash (one token at a time); `nil` removes it, which turns the admin API off.
    func setAdminTokenHash(_ hash: Data?, at date: Date) async throws(StorageError)
    /// Up to `limit` users ordered by subject, starting after the subject `after` (keyset paging: a user deleted
    /// between two pages shifts nothing).
    func users(after: String?, limit: Int) async throws(StorageError) -> [UserRecord]
    /// Removes the user and, in the same statement, their grants (so their refresh tokens and access tokens stop
    /// working), their unredeemed authorization codes, browser sessions and consents, with `events` when they existed
    /// (one unit); returns whether they existed.
    @discardableResult
    func deleteUser(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
}

extension AdministrationStore {
    /// Removes the user as ``deleteUser(id:recording:)`` does, recording no event.
    @discardableResult
    public func deleteUser(id: String) async throws(StorageError) -> Bool {
        try await deleteUser(id: id, recording: [])
    }
}
