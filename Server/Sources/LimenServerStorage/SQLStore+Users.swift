import Foundation

/// Users, written once for both dialects.
extension SQLStore {
    @discardableResult
    public func insertUserIfAbsent(_ user: UserRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
            VALUES (\(user.id), \(user.email), \(user.emailVerified), \(user.name), \(user.passwordHash),
                \(user.createdAt))
            ON CONFLICT DO NOTHING
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    /// On the read path: `/userinfo` reads the user on every call.
    public func user(id: String) async throws(StorageError) -> UserRecord? {
        try await read("SELECT \(.userColumns) FROM users WHERE id = \(id)").first.map { row throws(StorageError) in
            try UserRecord(row: row)
        }
    }

    public func user(email: String) async throws(StorageError) -> UserRecord? {
        try await read("SELECT \(.userColumns) FROM users WHERE email = \(email)").first.map {
            row throws(StorageError) in
            try UserRecord(row: row)
        }
    }

    public func users() async throws(StorageError) -> [UserRecord] {
        try await execute("SELECT \(.userColumns) FROM users ORDER BY created_at, id").map { row throws(StorageError) in
            try UserRecord(row: row)
        }
    }

    @discardableResult
    public func updateUser(_ user: UserRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        // A changed password_hash fires the users_password_changed trigger (migration 8), in this statement.
        !(try await execute(
            """
            UPDATE users SET email_verified = \(user.emailVerified), name = \(user.name),
                password_hash = \(user.passwordHash)
            WHERE id = \(user.id) RETURNING id
            """,
            recording: events
        )).isEmpty
    }
}

extension UserRecord {
    /// The user in `row`, whose user columns are named with `columnPrefix` (`user_id`, … when joined).
    init(row: some SQLRow, columnPrefix: String = "") throws(StorageError) {
        self.init(
            id: try row.text(columnPrefix + "id"),
            email: try row.optionalText(columnPrefix + "email"),
            emailVerified: try row.bool(columnPrefix + "email_verified"),
            name: try row.optionalText(columnPrefix + "name"),
            passwordHash: try row.optionalText(columnPrefix + "password_hash"),
            createdAt: try row.date(columnPrefix + "created_at"),
            identityCount: try row.integer(columnPrefix + "identity_count"),
            phoneNumber: try row.optionalText(columnPrefix + "phone_number")
        )
    }
}

extension SQLFragment {
    /// A user's columns, `identity_count`, how many identities they have, and `phone_number`, their `phone` identity's
    /// number, for a query `FROM users`.
    static let userColumns = SQLFragment(
        sqlite: userColumnsText, postgres: userColumnsText)

    private static let userColumnsText =
        "users.*, (SELECT COUNT(*) FROM identities WHERE identities.user_id = users.id) AS identity_count, "
        + "(SELECT subject FROM identities WHERE identities.user_id = users.id AND identities.kind = 'phone' "
        + "ORDER BY identities.created_at LIMIT 1) "
        + "AS phone_number"
}
