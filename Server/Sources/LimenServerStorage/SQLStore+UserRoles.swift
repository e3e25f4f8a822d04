import Foundation

/// User roles, written once for both dialects.
extension SQLStore {
    @discardableResult
    public func grantRole(_ role: UserRole, to userID: String, at date: Date, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        // Selecting the user makes an unknown subject grant nothing (rather than fail the foreign key).
        !(try await execute(
            """
            INSERT INTO user_roles (user_id, role, granted_at)
            SELECT id, \(role.rawValue), \(date) FROM users WHERE id = \(userID)
            ON CONFLICT DO NOTHING
            RETURNING user_id
            """,
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func revokeRole(_ role: UserRole, from userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            "DELETE FROM user_roles WHERE user_id = \(userID) AND role = \(role.rawValue) RETURNING user_id",
            recording: events
        )).isEmpty
    }

    public func roles(of userID: String) async throws(StorageError) -> Set<UserRole> {
        var roles = Set<UserRole>()
        for row in try await read("SELECT role FROM user_roles WHERE user_id = \(userID)") {
            // A role this build does not know (written by a newer one) grants nothing here.
            if let role = UserRole(rawValue: try row.text("role")) { roles.insert(role) }
        }
        return roles
    }

    public func userIDs(holding role: UserRole) async throws(StorageError) -> Set<String> {
        var subjects = Set<String>()
        for row in try await read("SELECT user_id FROM user_roles WHERE role = \(role.rawValue)") {
            subjects.insert(try row.text("user_id"))
        }
        return subjects
    }
}

extension SchemaMigrations {
    /// Version 31: the roles users hold (``UserRole``), gone with their user.
    static let userRoles = SchemaMigration(
        version: 31,
        name: "user roles",
        changes: [
            .createTable(
                TableDefinition(
                    name: "user_roles",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "role", kind: .text),
                        ColumnDefinition(name: "granted_at", kind: .time),
                    ],
                    primaryKey: ["user_id", "role"])),
            .createIndex(name: "user_roles_role", table: "user_roles", columns: ["role"]),
        ])
}
