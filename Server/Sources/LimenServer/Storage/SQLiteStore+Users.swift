import Foundation
import SQLiteNIO

extension SQLiteStore {
    @discardableResult
    public func insertUserIfAbsent(_ user: UserRecord) async throws(StorageError) -> Bool {
        let rows = try await query(
            """
            INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            RETURNING id
            """,
            [
                .text(user.id), .text(user.email), .integer(user.emailVerified ? 1 : 0),
                user.name.map(SQLiteData.text) ?? .null, user.passwordHash.map(SQLiteData.text) ?? .null,
                Self.time(user.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    /// On the read connection: `/userinfo` reads the user on every call.
    public func user(id: String) async throws(StorageError) -> UserRecord? {
        try await readRows("SELECT * FROM users WHERE id = ?", [.text(id)]).first.map(Self.user(from:))
    }

    public func user(email: String) async throws(StorageError) -> UserRecord? {
        try await query("SELECT * FROM users WHERE email = ?", [.text(email)]).first.map(Self.user(from:))
    }

    public func users() async throws(StorageError) -> [UserRecord] {
        try await query("SELECT * FROM users ORDER BY created_at, id").map(Self.user(from:))
    }

    @discardableResult
    public func updateUser(_ user: UserRecord) async throws(StorageError) -> Bool {
        // A changed password_hash fires the users_password_changed trigger (migration 8), in this statement.
        let rows = try await query(
            "UPDATE users SET email_verified = ?, name = ?, password_hash = ? WHERE id = ? RETURNING id",
            [
                .integer(user.emailVerified ? 1 : 0), user.name.map(SQLiteData.text) ?? .null,
                user.passwordHash.map(SQLiteData.text) ?? .null, .text(user.id),
            ]
        )
        return !rows.isEmpty
    }

    static func user(from row: some SQLiteColumns) throws(StorageError) -> UserRecord {
        try user(from: row, columnPrefix: "")
    }

    /// The user in `row`, whose user columns are named with `columnPrefix` (`user_id`, … when joined).
    static func user(from row: some SQLiteColumns, columnPrefix: String) throws(StorageError) -> UserRecord {
        UserRecord(
            id: try text(row, columnPrefix + "id"),
            email: try text(row, columnPrefix + "email"),
            emailVerified: row.column(columnPrefix + "email_verified")?.bool ?? false,
            name: row.column(columnPrefix + "name")?.string,
            passwordHash: row.column(columnPrefix + "password_hash")?.string,
            createdAt: try date(row, columnPrefix + "created_at")
        )
    }
}
