import Foundation

/// Second factors, written once for both dialects.
extension SQLStore {
    public func secondFactor(userID: String) async throws(StorageError) -> SecondFactorRecord? {
        let rows = try await read(
            """
            SELECT user_id, totp_secret, totp_last_step, recovery_codes, enabled_at FROM second_factors
            WHERE user_id = \(userID)
            """
        )
        guard let row = rows.first else { return nil }
        guard let hashes = SecondFactorRecord.unpacked(try row.data("recovery_codes")) else {
            throw StorageError.corruptRow("second_factors.recovery_codes is not a list of hashes")
        }
        return SecondFactorRecord(
            userID: try row.text("user_id"), sealedTOTPSecret: try row.data("totp_secret"),
            lastTOTPStep: try row.optionalInteger("totp_last_step").map(Int64.init), recoveryCodeHashes: hashes,
            enabledAt: try row.date("enabled_at"))
    }

    public func insertSecondFactor(_ record: SecondFactorRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            INSERT INTO second_factors (user_id, totp_secret, totp_last_step, recovery_codes, enabled_at)
            VALUES (\(record.userID), \(record.sealedTOTPSecret), \(record.lastTOTPStep),
                \(SecondFactorRecord.packed(record.recoveryCodeHashes)), \(record.enabledAt))
            ON CONFLICT (user_id) DO NOTHING
            RETURNING 1
            """,
            recording: events
        )).isEmpty
    }

    public func recordTOTPStep(userID: String, step: Int64) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            UPDATE second_factors SET totp_last_step = \(step)
            WHERE user_id = \(userID) AND (totp_last_step IS NULL OR totp_last_step < \(step))
            RETURNING 1
            """
        )).isEmpty
    }

    public func replaceRecoveryCodes(userID: String, old: [Data], new: [Data]) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            UPDATE second_factors SET recovery_codes = \(SecondFactorRecord.packed(new))
            WHERE user_id = \(userID) AND recovery_codes = \(SecondFactorRecord.packed(old))
            RETURNING 1
            """
        )).isEmpty
    }

    public func deleteSecondFactor(userID: String, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        !(try await execute("DELETE FROM second_factors WHERE user_id = \(userID) RETURNING 1", recording: events))
            .isEmpty
    }
}
