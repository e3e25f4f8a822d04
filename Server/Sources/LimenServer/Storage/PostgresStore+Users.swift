import Foundation
import PostgresNIO

extension PostgresStore {
    @discardableResult
    public func insertUserIfAbsent(_ user: UserRecord) async throws(StorageError) -> Bool {
        let inserted = try await rows(
            """
            INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
            VALUES (\(user.id), \(user.email), \(user.emailVerified), \(user.name), \(user.passwordHash),
                \(Self.seconds(user.createdAt)))
            ON CONFLICT DO NOTHING
            RETURNING id
            """
        )
        return !inserted.isEmpty
    }

    public func user(id: String) async throws(StorageError) -> UserRecord? {
        try await rows("SELECT * FROM users WHERE id = \(id)").first.map(Self.user(from:))
    }

    public func user(email: String) async throws(StorageError) -> UserRecord? {
        try await rows("SELECT * FROM users WHERE email = \(email)").first.map(Self.user(from:))
    }

    public func users() async throws(StorageError) -> [UserRecord] {
        try await rows("SELECT * FROM users ORDER BY created_at, id").map(Self.user(from:))
    }

    @discardableResult
    public func updateUser(_ user: UserRecord) async throws(StorageError) -> Bool {
        // A changed password_hash fires the users_password_changed trigger (migration 8), in this statement.
        !(try await rows(
            """
            UPDATE users SET email_verified = \(user.emailVerified), name = \(user.name),
                password_hash = \(user.passwordHash)
            WHERE id = \(user.id) RETURNING id
            """
        )).isEmpty
    }

    static func user(from row: PostgresRandomAccessRow) throws(StorageError) -> UserRecord {
        try user(from: row, columnPrefix: "")
    }

    /// The user in `row`, whose user columns are named with `columnPrefix` (`user_id`, … when joined).
    static func user(from row: PostgresRandomAccessRow, columnPrefix: String) throws(StorageError) -> UserRecord {
        UserRecord(
            id: try value(row, columnPrefix + "id", as: String.self),
            email: try value(row, columnPrefix + "email", as: String.self),
            emailVerified: try value(row, columnPrefix + "email_verified", as: Bool.self),
            name: try optional(row, columnPrefix + "name", as: String.self),
            passwordHash: try optional(row, columnPrefix + "password_hash", as: String.self),
            createdAt: try date(row, columnPrefix + "created_at")
        )
    }
}
