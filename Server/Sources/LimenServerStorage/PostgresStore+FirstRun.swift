import Foundation
import PostgresNIO

/// First-run creation in PostgreSQL, serialised across nodes by an advisory lock.
extension PostgresStore {
    /// The advisory lock that serialises first-run creation across nodes (migrations hold 7470356).
    static let firstRunLock: Int64 = 7_470_357

    /// A transaction that first takes ``firstRunLock``: under READ COMMITTED the insert, a statement after the lock,
    /// sees a key another node committed while this one waited.
    public func insertSigningKeyIfAlgorithmAbsent(_ key: SigningKeyRecord) async throws(StorageError) -> Bool {
        try await client.withTransaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.firstRunLock))", logger: logger)
            let inserted = try await connection.query(
                Self.postgresQuery(SigningKeyRecord.insertIfAlgorithmAbsent(key)), logger: logger
            ).collect()
            return !inserted.isEmpty
        }
    }
}
