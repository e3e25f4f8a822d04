import Crypto
import Foundation
import LimenServerStorage
import LimenWire
import Logging

/// Storing the app schema, from the configuration file or the admin API.
///
/// The newer change wins: the file's schema (the `profile_schema` key) is stored at start when it differs from the
/// file schema last stored (compared by digest), and the admin API replaces the stored schema at any time. So an admin
/// API change survives restarts until the file's schema itself is edited; then the file's applies.
extension ProfileSchema {
    /// The SHA-256 (hex) of the schema's canonical document.
    package var digest: String {
        SHA256.hash(data: document.serialized()).lowercaseHex
    }

    /// The record storing this schema, keeping `fileDigest`.
    package func record(fileDigest: String?, now: Date) -> AppSchemaRecord {
        AppSchemaRecord(
            document: String(decoding: document.serialized(), as: UTF8.self), fileDigest: fileDigest, updatedAt: now)
    }

    /// Stores this schema, read from the configuration file, unless the same file schema was stored before (and the
    /// admin API may have changed it since); returns whether it was stored.
    @discardableResult
    package func applyAsConfigured(to store: any ProfileStore, now: Date, logger: Logger) async throws(StorageError)
        -> Bool
    {
        let digest = self.digest
        guard try await store.appSchema()?.fileDigest != digest else {
            logger.debug("The configured profile schema is unchanged; the stored one stays")
            return false
        }
        try await store.replaceAppSchema(record(fileDigest: digest, now: now))
        logger.notice("Stored the profile schema of the configuration file", metadata: ["fields": "\(fields.count)"])
        return true
    }

    /// Stores this schema, set through the admin API, keeping the digest of the file schema last stored.
    package func applyAsAdministered(to store: any ProfileStore, now: Date) async throws(StorageError) {
        try await store.replaceAppSchema(record(fileDigest: try await store.appSchema()?.fileDigest, now: now))
    }
}
