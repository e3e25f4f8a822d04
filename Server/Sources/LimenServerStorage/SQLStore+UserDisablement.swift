import Foundation

/// Disabled users, written once for both dialects.
extension SQLStore {
    @discardableResult
    public func disableUser(_ userID: String, at date: Date, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        // Selecting the user makes an unknown subject disable nothing (rather than fail the foreign key).
        !(try await execute(
            """
            INSERT INTO disabled_users (user_id, disabled_at)
            SELECT id, \(date) FROM users WHERE id = \(userID)
            ON CONFLICT DO NOTHING
            RETURNING user_id
            """,
            followedBy: { whenChanged in Self.endingEverySession(of: userID, when: whenChanged) },
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func enableUser(_ userID: String, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        !(try await execute(
            "DELETE FROM disabled_users WHERE user_id = \(userID) RETURNING user_id", recording: events
        )).isEmpty
    }

    public func disabledAt(userID: String) async throws(StorageError) -> Date? {
        try await read("SELECT disabled_at FROM disabled_users WHERE user_id = \(userID)").first?.date("disabled_at")
    }
}

extension SchemaMigrations {
    /// Version 32: the users an admin disabled (``UserDisablementStore``), gone with their user.
    static let disabledUsers = SchemaMigration(
        version: 32,
        name: "disabled users",
        changes: [
            .createTable(
                TableDefinition(
                    name: "disabled_users",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "disabled_at", kind: .time),
                    ],
                    primaryKey: ["user_id"]))
        ])
}
