import Foundation

extension PostgresStore {
    /// One statement: the data-modifying CTEs and the user's deletion commit together (sessions and consents go
    /// through their foreign keys).
    @discardableResult
    public func deleteUser(id: String) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            WITH grants_removed AS (DELETE FROM grants WHERE subject = \(id)),
                codes_removed AS (DELETE FROM authorization_codes WHERE subject = \(id))
            DELETE FROM users WHERE id = \(id) RETURNING id
            """
        )).isEmpty
    }
}
