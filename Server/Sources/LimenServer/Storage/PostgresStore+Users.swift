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
        UserRecord(
            id: try value(row, "id", as: String.self),
            email: try value(row, "email", as: String.self),
            emailVerified: try value(row, "email_verified", as: Bool.self),
            name: try optional(row, "name", as: String.self),
            passwordHash: try optional(row, "password_hash", as: String.self),
            createdAt: try date(row, "created_at")
        )
    }

    // MARK: Failed sign-ins

    public func recordSignInFailure(key: String, now: Date) async throws(StorageError) -> Int {
        let counted = try await rows(
            """
            INSERT INTO sign_in_failures (key, failures, last_failure_at) VALUES (\(key), 1, \(Self.seconds(now)))
            ON CONFLICT (key) DO UPDATE SET failures = sign_in_failures.failures + 1,
                last_failure_at = excluded.last_failure_at
            RETURNING failures
            """
        )
        return try counted.first.map { row throws(StorageError) in try Self.value(row, "failures", as: Int.self) } ?? 1
    }

    public func lockSignIn(key: String, until date: Date) async throws(StorageError) {
        try await rows("UPDATE sign_in_failures SET locked_until = \(Self.seconds(date)) WHERE key = \(key)")
    }

    public func signInLockedUntil(key: String) async throws(StorageError) -> Date? {
        try await rows("SELECT locked_until FROM sign_in_failures WHERE key = \(key)").first.flatMap {
            row throws(StorageError) in try Self.optionalDate(row, "locked_until")
        }
    }

    public func clearSignInFailures(key: String) async throws(StorageError) {
        try await rows("DELETE FROM sign_in_failures WHERE key = \(key)")
    }

    @discardableResult
    public func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int {
        let cutoff = Self.seconds(date)
        return try await rows(
            """
            DELETE FROM sign_in_failures WHERE last_failure_at < \(cutoff) AND COALESCE(locked_until, 0) < \(cutoff)
            RETURNING 1
            """
        ).count
    }
}
