import Foundation
import PostgresNIO

extension PostgresStore {
    public func adminTokenHash() async throws(StorageError) -> Data? {
        try await rows("SELECT token_hash FROM admin_token WHERE id = 1").first.map { row throws(StorageError) in
            try Self.value(row, "token_hash", as: Data.self)
        }
    }

    public func setAdminTokenHash(_ hash: Data?, at date: Date) async throws(StorageError) {
        guard let hash else {
            try await rows("DELETE FROM admin_token")
            return
        }
        try await rows(
            """
            INSERT INTO admin_token (id, token_hash, created_at) VALUES (1, \(Self.bytes(hash)), \(Self.seconds(date)))
            ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
            """
        )
    }

    public func users(after: String?, limit: Int) async throws(StorageError) -> [UserRecord] {
        // Byte order, as SQLite compares: a locale collation would order the same IDs differently.
        try await rows(
            """
            SELECT * FROM users WHERE id COLLATE "C" > \(after ?? "") ORDER BY id COLLATE "C" LIMIT \(max(limit, 0))
            """
        )
        .map(Self.user(from:))
    }

    /// One statement: the data-modifying CTEs and the user's deletion commit together (sessions and consents go
    /// through their foreign keys).
    @discardableResult
    public func deleteUser(id: String) async throws(StorageError) -> Bool {
        !(try await rows(
            """
            WITH grants_removed AS (DELETE FROM grants WHERE subject = \(id)),
                codes_removed AS (DELETE FROM authorization_codes WHERE subject = \(id))
            DELETE FROM users WHERE id = \(id) RETURNING id
            """
        )).isEmpty
    }
}
