import Foundation

extension SQLiteStore {
    /// Grants and codes go with the user through the `users_delete_issued` trigger (migration 7); sessions and
    /// consents through their foreign keys.
    @discardableResult
    public func deleteUser(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool {
        !(try await execute("DELETE FROM users WHERE id = \(id) RETURNING id", recording: events)).isEmpty
    }
}

extension SQLiteStore {
    /// Their grants and codes go through the `users_delete_issued` trigger, as with ``deleteUser(id:)``.
    @discardableResult
    public func deleteAnonymousUsers(inactiveSince date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM users WHERE id IN (\(staleGuestIDs(inactiveSince: date))) RETURNING id").count
    }
}
