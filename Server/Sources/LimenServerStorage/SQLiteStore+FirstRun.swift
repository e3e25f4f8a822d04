import Foundation

/// First-run creation in SQLite: single statements, serialised by the file's write lock.
extension SQLiteStore {
    /// One statement: a write statement takes SQLite's write lock before it reads (waiting up to the busy timeout),
    /// so a second process sees the first one's key.
    public func insertSigningKeyIfAlgorithmAbsent(_ key: SigningKeyRecord) async throws(StorageError) -> Bool {
        !(try await execute(SigningKeyRecord.insertIfAlgorithmAbsent(key))).isEmpty
    }
}

extension SigningKeyRecord {
    /// Inserts `key` unless a key of its algorithm exists, returning its `kid` when it did.
    static func insertIfAlgorithmAbsent(_ key: SigningKeyRecord) -> SQLQuery {
        """
        INSERT INTO signing_keys (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at)
        SELECT \(key.kid), \(key.algorithm), \(key.encryptedPrivateKey), \(key.createdAt), \(key.activatesAt),
            \(key.retiredAt)
        WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE algorithm = \(key.algorithm))
        RETURNING kid
        """
    }
}
