import Foundation

/// Apple accounts, written once for both dialects.
extension SQLStore {
    public func saveAppleAccount(_ record: AppleAccountRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO apple_accounts (user_id, subject, is_private_email, real_user_status, sealed_refresh_token,
                refresh_token_client_id, updated_at)
            VALUES (\(record.userID), \(record.subject), \(record.isPrivateEmail), \(record.realUserStatus),
                \(record.sealedRefreshToken), \(record.refreshTokenClientID), \(record.updatedAt))
            ON CONFLICT (user_id) DO UPDATE SET subject = excluded.subject,
                is_private_email = excluded.is_private_email, real_user_status = excluded.real_user_status,
                sealed_refresh_token = COALESCE(excluded.sealed_refresh_token, apple_accounts.sealed_refresh_token),
                refresh_token_client_id = CASE WHEN excluded.sealed_refresh_token IS NULL
                    THEN apple_accounts.refresh_token_client_id ELSE excluded.refresh_token_client_id END,
                updated_at = excluded.updated_at
            """
        )
    }

    public func forgetAppleRefreshToken(userID: String) async throws(StorageError) {
        try await execute(
            """
            UPDATE apple_accounts SET sealed_refresh_token = NULL, refresh_token_client_id = NULL
            WHERE user_id = \(userID)
            """
        )
    }

    public func appleAccount(userID: String) async throws(StorageError) -> AppleAccountRecord? {
        let rows = try await read(
            """
            SELECT user_id, subject, is_private_email, real_user_status, sealed_refresh_token, refresh_token_client_id,
                updated_at
            FROM apple_accounts WHERE user_id = \(userID)
            """
        )
        guard let row = rows.first else { return nil }
        return AppleAccountRecord(
            userID: try row.text("user_id"), subject: try row.text("subject"),
            isPrivateEmail: try row.bool("is_private_email"),
            realUserStatus: try row.optionalInteger("real_user_status"),
            sealedRefreshToken: try row.optionalData("sealed_refresh_token"),
            refreshTokenClientID: try row.optionalText("refresh_token_client_id"), updatedAt: try row.date("updated_at")
        )
    }
}
