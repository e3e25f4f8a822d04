import Foundation

/// Refresh tokens, written once for both dialects except the rotation, which each dialect runs its own way
/// (`SQLiteStore+RefreshTokens.swift`, `PostgresStore+RefreshTokens.swift`).
extension SQLStore {
    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO refresh_tokens (
                token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor, successor_hash, retired_at)
            VALUES (\(token.tokenHash), \(token.grantID), \(token.issuedAt), \(token.expiresAt), \(token.rotatedAt),
                \(token.sealedSuccessor), \(token.successorHash), \(token.retiredAt))
            """
        )
    }

    public func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord? {
        try await execute("SELECT * FROM refresh_tokens WHERE token_hash = \(hash)").first.map {
            row throws(StorageError) in try RefreshTokenRecord(row: row)
        }
    }

    public func refreshTokenWithGrant(hash: Data) async throws(StorageError) -> RefreshTokenWithGrant? {
        // The token's columns as they are, the grant's with a `grant_` prefix, the user's with a `user_` prefix (absent
        // when the user is gone) and the end of the grant's browser session.
        let found = try await execute(
            """
            SELECT t.*, g.client_id AS grant_client_id, g.subject AS grant_subject, g.scope AS grant_scope,
                g.auth_time AS grant_auth_time, g.nonce AS grant_nonce, g.created_at AS grant_created_at,
                g.expires_at AS grant_expires_at, g.revoked_at AS grant_revoked_at,
                g.browser_session_hash AS grant_browser_session_hash, g.dpop_jkt AS grant_dpop_jkt, g.amr AS grant_amr,
                s.expires_at AS session_expires_at,
                u.id AS user_id, u.email AS user_email, u.email_verified AS user_email_verified, u.name AS user_name,
                u.password_hash AS user_password_hash, u.created_at AS user_created_at,
                (SELECT COUNT(*) FROM identities i WHERE i.user_id = u.id) AS user_identity_count,
                (SELECT subject FROM identities i WHERE i.user_id = u.id AND i.kind = 'phone'
                    ORDER BY i.created_at LIMIT 1) AS user_phone_number
            FROM refresh_tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.id = g.subject
                LEFT JOIN browser_sessions s ON s.id_hash = g.browser_session_hash
            WHERE t.token_hash = \(hash)
            """
        )
        guard let row = found.first else { return nil }
        return RefreshTokenWithGrant(
            token: try RefreshTokenRecord(row: row),
            grant: try GrantRecord(row: row, columnPrefix: "grant_"),
            user: try row.optionalText("user_id") == nil ? nil : try UserRecord(row: row, columnPrefix: "user_"),
            sessionExpiresAt: try row.optionalDate("session_expires_at"))
    }

    @discardableResult
    public func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM refresh_tokens WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension RefreshTokenRecord {
    /// The token in a row of `refresh_tokens`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            tokenHash: try row.data("token_hash"),
            grantID: try row.text("grant_id"),
            issuedAt: try row.date("issued_at"),
            expiresAt: try row.date("expires_at"),
            rotatedAt: try row.optionalDate("rotated_at"),
            sealedSuccessor: try row.optionalData("sealed_successor"),
            successorHash: try row.optionalData("successor_hash"),
            retiredAt: try row.optionalDate("retired_at")
        )
    }
}
