import Foundation
import SQLiteNIO

/// First-run creation in SQLite: single statements, serialised by the file's write lock.
extension SQLiteStore {
    /// One statement: a write statement takes SQLite's write lock before it reads (waiting up to the busy timeout),
    /// so a second process sees the first one's key.
    public func insertSigningKeyIfAlgorithmAbsent(_ key: SigningKeyRecord) async throws(StorageError) -> Bool {
        let rows = try await query(
            """
            INSERT INTO signing_keys (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at)
            SELECT ?, ?, ?, ?, ?, ?
            WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE algorithm = ?)
            RETURNING kid
            """,
            [
                .text(key.kid), .text(key.algorithm), Self.blob(key.encryptedPrivateKey), Self.time(key.createdAt),
                Self.time(key.activatesAt), key.retiredAt.map(Self.time) ?? .null, .text(key.algorithm),
            ]
        )
        return !rows.isEmpty
    }
}
