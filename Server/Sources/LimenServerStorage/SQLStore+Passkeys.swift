import Foundation

/// Passkeys, written once for both dialects.
extension SQLStore {
    public func insertPasskeyCredential(_ record: PasskeyCredentialRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            INSERT INTO passkey_credentials (credential_id, user_id, user_handle, public_key, sign_count, backup_eligible, backed_up,
                name, created_at, last_used_at)
            VALUES (\(record.credentialID), \(record.userID), \(record.userHandle), \(record.publicKey), \(Int(record.signCount)),
                \(record.isBackupEligible), \(record.isBackedUp), \(record.name), \(record.createdAt),
                \(record.lastUsedAt))
            ON CONFLICT (credential_id) DO NOTHING
            RETURNING 1
            """,
            recording: events
        )).isEmpty
    }

    public func passkeyCredential(id: Data) async throws(StorageError) -> PasskeyCredentialRecord? {
        try Self.passkeyRecords(
            try await read("\(Self.passkeyColumns) FROM passkey_credentials WHERE credential_id = \(id)")
        ).first
    }

    public func passkeyCredentials(userID: String) async throws(StorageError) -> [PasskeyCredentialRecord] {
        try Self.passkeyRecords(
            try await read(
                """
                \(Self.passkeyColumns) FROM passkey_credentials WHERE user_id = \(userID)
                ORDER BY created_at, credential_id
                """
            ))
    }

    public func recordPasskeyUse(
        id: Data, previousSignCount: UInt32, signCount: UInt32, isBackedUp: Bool, at date: Date
    ) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            UPDATE passkey_credentials SET sign_count = \(Int(signCount)), backed_up = \(isBackedUp),
                last_used_at = \(date)
            WHERE credential_id = \(id) AND sign_count = \(Int(previousSignCount))
            RETURNING 1
            """
        )).isEmpty
    }

    public func renamePasskeyCredential(id: Data, userID: String, name: String) async throws(StorageError)
        -> PasskeyCredentialRecord?
    {
        try Self.passkeyRecords(
            try await execute(
                """
                UPDATE passkey_credentials SET name = \(name) WHERE credential_id = \(id) AND user_id = \(userID)
                RETURNING \(Self.passkeyColumnList)
                """
            )
        ).first
    }

    public func deletePasskeyCredential(id: Data, userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            "DELETE FROM passkey_credentials WHERE credential_id = \(id) AND user_id = \(userID) RETURNING 1",
            recording: events
        )).isEmpty
    }

    public func passkeyUserHandle(userID: String, candidate: Data) async throws(StorageError) -> Data {
        // One statement: the stored handle, or the candidate stored now (a no-op update returns the stored row).
        let rows = try await execute(
            """
            INSERT INTO passkey_user_handles AS h (user_id, handle) VALUES (\(userID), \(candidate))
            ON CONFLICT (user_id) DO UPDATE SET handle = h.handle
            RETURNING handle
            """
        )
        guard let row = rows.first else { throw StorageError.corruptRow("passkey_user_handles: no row returned") }
        return try row.data("handle")
    }

    /// The columns a ``PasskeyCredentialRecord`` is read from.
    private static var passkeyColumnList: SQLQuery {
        """
        credential_id, user_id, user_handle, public_key, sign_count, backup_eligible, backed_up, name, created_at,
            last_used_at
        """
    }

    /// `SELECT` of ``passkeyColumnList``.
    private static var passkeyColumns: SQLQuery { "SELECT \(passkeyColumnList)" }

    /// The records of `rows`.
    private static func passkeyRecords(_ rows: [Row]) throws(StorageError) -> [PasskeyCredentialRecord] {
        var records: [PasskeyCredentialRecord] = []
        for row in rows {
            guard let signCount = UInt32(exactly: try row.integer("sign_count")) else {
                throw StorageError.corruptRow("passkey_credentials.sign_count is out of range")
            }
            records.append(
                PasskeyCredentialRecord(
                    credentialID: try row.data("credential_id"), userID: try row.text("user_id"),
                    userHandle: try row.data("user_handle"),
                    publicKey: try row.data("public_key"), signCount: signCount,
                    isBackupEligible: try row.bool("backup_eligible"), isBackedUp: try row.bool("backed_up"),
                    name: try row.text("name"), createdAt: try row.date("created_at"),
                    lastUsedAt: try row.optionalDate("last_used_at")))
        }
        return records
    }
}
