import Foundation
import PostgresNIO

/// First-run creation in PostgreSQL, serialised across nodes by an advisory lock.
extension PostgresStore {
    /// The advisory lock that serialises first-run creation across nodes (migrations hold 7470356).
    static let firstRunLock: Int64 = 7_470_357

    /// A transaction that first takes ``firstRunLock``: under READ COMMITTED the insert, a statement after the lock,
    /// sees a key another node committed while this one waited.
    public func insertSigningKeyIfAlgorithmAbsent(_ key: SigningKeyRecord) async throws(StorageError) -> Bool {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.firstRunLock))", logger: logger)
                let inserted = try await connection.query(
                    """
                    INSERT INTO signing_keys
                        (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at)
                    SELECT \(key.kid), \(key.algorithm), \(Self.bytes(key.encryptedPrivateKey)),
                        \(Self.seconds(key.createdAt)), \(Self.seconds(key.activatesAt)),
                        \(key.retiredAt.map(Self.seconds))
                    WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE algorithm = \(key.algorithm))
                    RETURNING kid
                    """,
                    logger: logger
                ).collect()
                return !inserted.isEmpty
            }
        } catch {
            throw .queryFailed(String(reflecting: error))
        }
    }
}
