import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func adminTokenHash() async throws(StorageError) -> Data? {
        guard let row = try await query("SELECT token_hash FROM admin_token WHERE id = 1").first else { return nil }
        return try Self.data(row, "token_hash")
    }

    public func setAdminTokenHash(_ hash: Data?, at date: Date) async throws(StorageError) {
        guard let hash else {
            try await query("DELETE FROM admin_token")
            return
        }
        try await query(
            """
            INSERT INTO admin_token (id, token_hash, created_at) VALUES (1, ?, ?)
            ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
            """,
            [Self.blob(hash), Self.time(date)]
        )
    }

    public func users(after: String?, limit: Int) async throws(StorageError) -> [UserRecord] {
        try await query(
            "SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?",
            [.text(after ?? ""), .integer(max(limit, 0))]
        ).map(Self.user(from:))
    }

    /// Grants and codes go with the user through the `users_delete_issued` trigger (migration 7); sessions and
    /// consents through their foreign keys.
    @discardableResult
    public func deleteUser(id: String) async throws(StorageError) -> Bool {
        !(try await query("DELETE FROM users WHERE id = ? RETURNING id", [.text(id)])).isEmpty
    }
}
