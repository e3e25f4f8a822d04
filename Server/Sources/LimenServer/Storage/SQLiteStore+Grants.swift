import Foundation
import SQLiteNIO

/// Grants, code redemption, refresh tokens and revoked access tokens in SQLite: every method is one statement (or an
/// ordered pair of them), so concurrent requests need no transaction.
extension SQLiteStore {
    // MARK: Authorization code redemption

    public func redeemAuthorizationCode(
        hash: Data,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption {
        let redeemed = try await query(
            """
            UPDATE authorization_codes SET used_at = ?, grant_id = ?
            WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
            RETURNING *
            """,
            [Self.time(now), .text(grantID), Self.blob(hash), Self.time(now)]
        )
        if let row = redeemed.first { return .redeemed(try Self.authorizationCode(from: row)) }
        // Marking the replay first means a grant not stored yet never will be (see insertGrant).
        let replayed = try await query(
            """
            UPDATE authorization_codes SET replayed_at = COALESCE(replayed_at, ?)
            WHERE code_hash = ? AND used_at IS NOT NULL
            RETURNING grant_id
            """,
            [Self.time(now), Self.blob(hash)]
        )
        guard let row = replayed.first else { return .unknown }
        if let grantID = row.column("grant_id")?.string {
            try await revokeGrant(id: grantID, at: now)
        }
        return .replayed
    }

    // MARK: Grants

    public func insertGrant(_ grant: GrantRecord, redeemedCodeHash: Data) async throws(StorageError) -> Bool {
        let rows = try await query(
            """
            INSERT INTO grants (id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
            WHERE EXISTS (
                SELECT 1 FROM authorization_codes WHERE code_hash = ? AND grant_id = ? AND replayed_at IS NULL
            )
            RETURNING id
            """,
            [
                .text(grant.id), .text(grant.clientID), .text(grant.subject), .text(grant.scope),
                Self.time(grant.authTime), grant.nonce.map(SQLiteData.text) ?? .null, Self.time(grant.createdAt),
                Self.time(grant.expiresAt), grant.revokedAt.map(Self.time) ?? .null, Self.blob(redeemedCodeHash),
                .text(grant.id),
            ]
        )
        return !rows.isEmpty
    }

    public func grant(id: String) async throws(StorageError) -> GrantRecord? {
        guard let row = try await query("SELECT * FROM grants WHERE id = ?", [.text(id)]).first else { return nil }
        return try Self.grant(from: row)
    }

    /// A row of `grants`.
    static func grant(from row: SQLiteRow) throws(StorageError) -> GrantRecord {
        GrantRecord(
            id: try Self.text(row, "id"),
            clientID: try Self.text(row, "client_id"),
            subject: try Self.text(row, "subject"),
            scope: try Self.text(row, "scope"),
            authTime: try Self.date(row, "auth_time"),
            nonce: row.column("nonce")?.string,
            createdAt: try Self.date(row, "created_at"),
            expiresAt: try Self.date(row, "expires_at"),
            revokedAt: Self.optionalDate(row, "revoked_at")
        )
    }

    public func extendGrant(id: String, until date: Date) async throws(StorageError) {
        try await query(
            "UPDATE grants SET expires_at = MAX(expires_at, ?) WHERE id = ?",
            [Self.time(date), .text(id)]
        )
    }

    @discardableResult
    public func revokeGrant(id: String, at date: Date) async throws(StorageError) -> Bool {
        let rows = try await query(
            "UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id",
            [Self.time(date), .text(id)]
        )
        return !rows.isEmpty
    }

    @discardableResult
    public func deleteExpiredGrants(before date: Date) async throws(StorageError) -> Int {
        try await query("DELETE FROM grants WHERE expires_at <= ? RETURNING 1", [Self.time(date)]).count
    }

    // MARK: Revoked access tokens

    public func revokeAccessToken(jti: String, expiresAt: Date) async throws(StorageError) {
        try await query(
            "INSERT INTO revoked_access_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING",
            [.text(jti), Self.time(expiresAt)]
        )
    }

    public func isAccessTokenRevoked(jti: String) async throws(StorageError) -> Bool {
        !(try await query("SELECT 1 FROM revoked_access_tokens WHERE jti = ?", [.text(jti)])).isEmpty
    }

    @discardableResult
    public func deleteExpiredAccessTokenRevocations(before date: Date) async throws(StorageError) -> Int {
        try await query(
            "DELETE FROM revoked_access_tokens WHERE expires_at <= ? RETURNING 1",
            [Self.time(date)]
        ).count
    }

    // MARK: Refresh tokens

    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                Self.blob(token.tokenHash), .text(token.grantID), Self.time(token.issuedAt),
                Self.time(token.expiresAt), token.rotatedAt.map(Self.time) ?? .null, Self.blob(token.sealedSuccessor),
            ]
        )
    }

    public func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord? {
        let rows = try await query("SELECT * FROM refresh_tokens WHERE token_hash = ?", [Self.blob(hash)])
        guard let row = rows.first else { return nil }
        return RefreshTokenRecord(
            tokenHash: try Self.data(row, "token_hash"),
            grantID: try Self.text(row, "grant_id"),
            issuedAt: try Self.date(row, "issued_at"),
            expiresAt: try Self.date(row, "expires_at"),
            rotatedAt: Self.optionalDate(row, "rotated_at"),
            sealedSuccessor: row.column("sealed_successor")?.blob == nil ? nil : try Self.data(row, "sealed_successor")
        )
    }

    public func rotateRefreshToken(
        hash: Data,
        at date: Date,
        sealedSuccessor: Data
    ) async throws(StorageError) -> Bool {
        let rows = try await query(
            """
            UPDATE refresh_tokens SET rotated_at = ?, sealed_successor = ?
            WHERE token_hash = ? AND rotated_at IS NULL
            RETURNING token_hash
            """,
            [Self.time(date), Self.blob(sealedSuccessor), Self.blob(hash)]
        )
        return !rows.isEmpty
    }

    public func deleteRefreshToken(hash: Data) async throws(StorageError) {
        try await query("DELETE FROM refresh_tokens WHERE token_hash = ?", [Self.blob(hash)])
    }

    @discardableResult
    public func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int {
        try await query("DELETE FROM refresh_tokens WHERE expires_at <= ? RETURNING 1", [Self.time(date)]).count
    }

    // MARK: Rows

    private static func optionalDate(_ row: SQLiteRow, _ column: String) -> Date? {
        row.column(column)?.integer.map { Date(timeIntervalSince1970: Double($0)) }
    }

    private static func authorizationCode(from row: SQLiteRow) throws(StorageError) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: try data(row, "code_hash"),
            clientID: try text(row, "client_id"),
            redirectURI: try text(row, "redirect_uri"),
            subject: try text(row, "subject"),
            scope: try text(row, "scope"),
            nonce: row.column("nonce")?.string,
            codeChallenge: row.column("code_challenge")?.string,
            authTime: try date(row, "auth_time"),
            expiresAt: try date(row, "expires_at")
        )
    }
}
