import Foundation

/// The admin token and the admin API's paging through users, written once for both dialects.
extension SQLStore {
    public func adminTokenHash() async throws(StorageError) -> Data? {
        try await execute("SELECT token_hash FROM admin_token WHERE id = 1").first.map { row throws(StorageError) in
            try row.data("token_hash")
        }
    }

    public func setAdminTokenHash(_ hash: Data?, at date: Date) async throws(StorageError) {
        guard let hash else {
            try await execute("DELETE FROM admin_token")
            return
        }
        try await execute(
            """
            INSERT INTO admin_token (id, token_hash, created_at) VALUES (1, \(hash), \(date))
            ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
            """
        )
    }

    public func users(after: String?, limit: Int) async throws(StorageError) -> [UserRecord] {
        // Byte order in both: a PostgreSQL locale collation would order the same IDs differently from SQLite.
        try await execute(
            """
            SELECT \(.userColumns) FROM users WHERE id\(.byteOrder) > \(after ?? "") ORDER BY id\(.byteOrder) LIMIT \(max(limit, 0))
            """
        ).map { row throws(StorageError) in try UserRecord(row: row) }
    }
}

extension SQLFragment {
    /// Compares text byte by byte, as SQLite does by default.
    static let byteOrder = SQLFragment(sqlite: "", postgres: #" COLLATE "C""#)
}
