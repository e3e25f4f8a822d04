import Foundation
import PostgresNIO

/// Grants, code redemption, refresh tokens and revoked access tokens in PostgreSQL. Each method is one statement or an
/// ordered pair of autocommitted statements; the code row's lock orders a grant's insertion against a replay of its
/// code (see ``insertGrant(_:redeemedCodeHash:)``).
extension PostgresStore {
    // MARK: Authorization code redemption

    public func redeemAuthorizationCode(
        hash: Data,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption {
        let seconds = Self.seconds(now)
        let redeemed = try await rows(
            """
            UPDATE authorization_codes SET used_at = \(seconds), grant_id = \(grantID)
            WHERE code_hash = \(Self.bytes(hash)) AND used_at IS NULL AND expires_at > \(seconds)
            RETURNING *
            """
        )
        if let row = redeemed.first { return .redeemed(try Self.authorizationCode(from: row)) }
        // Its own statement, committed before the grant is revoked: a grant inserted meanwhile is then visible.
        let replayed = try await rows(
            """
            UPDATE authorization_codes SET replayed_at = COALESCE(replayed_at, \(seconds))
            WHERE code_hash = \(Self.bytes(hash)) AND used_at IS NOT NULL
            RETURNING grant_id
            """
        )
        guard let row = replayed.first else { return .unknown }
        if let grantID = try Self.optional(row, "grant_id", as: String.self) {
            try await revokeGrant(id: grantID, at: now)
        }
        return .replayed
    }

    // MARK: Grants

    public func insertGrant(_ grant: GrantRecord, redeemedCodeHash: Data) async throws(StorageError) -> Bool {
        // FOR UPDATE waits for a replay marking the code, then re-reads it: a replayed code stores no grant.
        let inserted = try await rows(
            """
            WITH code AS (
                SELECT 1 FROM authorization_codes
                WHERE code_hash = \(Self.bytes(redeemedCodeHash)) AND grant_id = \(grant.id) AND replayed_at IS NULL
                FOR UPDATE
            )
            INSERT INTO grants (id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at)
            SELECT \(grant.id), \(grant.clientID), \(grant.subject), \(grant.scope), \(Self.seconds(grant.authTime)),
                \(grant.nonce), \(Self.seconds(grant.createdAt)), \(Self.seconds(grant.expiresAt)),
                \(grant.revokedAt.map(Self.seconds))
            WHERE EXISTS (SELECT 1 FROM code)
            RETURNING id
            """
        )
        return !inserted.isEmpty
    }

    public func grant(id: String) async throws(StorageError) -> GrantRecord? {
        guard let row = try await rows("SELECT * FROM grants WHERE id = \(id)").first else { return nil }
        return try Self.grant(from: row)
    }

    /// A row of `grants`.
    static func grant(from row: PostgresRandomAccessRow) throws(StorageError) -> GrantRecord {
        GrantRecord(
            id: try Self.value(row, "id", as: String.self),
            clientID: try Self.value(row, "client_id", as: String.self),
            subject: try Self.value(row, "subject", as: String.self),
            scope: try Self.value(row, "scope", as: String.self),
            authTime: try Self.date(row, "auth_time"),
            nonce: try Self.optional(row, "nonce", as: String.self),
            createdAt: try Self.date(row, "created_at"),
            expiresAt: try Self.date(row, "expires_at"),
            revokedAt: try Self.optionalDate(row, "revoked_at")
        )
    }

    public func extendGrant(id: String, until date: Date) async throws(StorageError) {
        try await rows(
            "UPDATE grants SET expires_at = GREATEST(expires_at, \(Self.seconds(date))) WHERE id = \(id)")
    }

    @discardableResult
    public func revokeGrant(id: String, at date: Date) async throws(StorageError) -> Bool {
        let revoked = try await rows(
            "UPDATE grants SET revoked_at = \(Self.seconds(date)) WHERE id = \(id) AND revoked_at IS NULL RETURNING id")
        return !revoked.isEmpty
    }

    @discardableResult
    public func deleteExpiredGrants(before date: Date) async throws(StorageError) -> Int {
        try await rows("DELETE FROM grants WHERE expires_at <= \(Self.seconds(date)) RETURNING 1").count
    }

    // MARK: Revoked access tokens

    public func revokeAccessToken(jti: String, expiresAt: Date) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO revoked_access_tokens (jti, expires_at) VALUES (\(jti), \(Self.seconds(expiresAt)))
            ON CONFLICT (jti) DO NOTHING
            """
        )
    }

    public func isAccessTokenRevoked(jti: String) async throws(StorageError) -> Bool {
        !(try await rows("SELECT 1 FROM revoked_access_tokens WHERE jti = \(jti)")).isEmpty
    }

    @discardableResult
    public func deleteExpiredAccessTokenRevocations(before date: Date) async throws(StorageError) -> Int {
        try await rows(
            "DELETE FROM revoked_access_tokens WHERE expires_at <= \(Self.seconds(date)) RETURNING 1"
        ).count
    }

    // MARK: Refresh tokens

    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor)
            VALUES (\(Self.bytes(token.tokenHash)), \(token.grantID), \(Self.seconds(token.issuedAt)),
                \(Self.seconds(token.expiresAt)), \(token.rotatedAt.map(Self.seconds)),
                \(token.sealedSuccessor.map(Self.bytes)))
            """
        )
    }

    public func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord? {
        let found = try await rows("SELECT * FROM refresh_tokens WHERE token_hash = \(Self.bytes(hash))")
        guard let row = found.first else { return nil }
        return RefreshTokenRecord(
            tokenHash: try Self.value(row, "token_hash", as: Data.self),
            grantID: try Self.value(row, "grant_id", as: String.self),
            issuedAt: try Self.date(row, "issued_at"),
            expiresAt: try Self.date(row, "expires_at"),
            rotatedAt: try Self.optionalDate(row, "rotated_at"),
            sealedSuccessor: try Self.optional(row, "sealed_successor", as: Data.self)
        )
    }

    public func rotateRefreshToken(
        hash: Data,
        at date: Date,
        sealedSuccessor: Data
    ) async throws(StorageError) -> Bool {
        let rotated = try await rows(
            """
            UPDATE refresh_tokens SET rotated_at = \(Self.seconds(date)), sealed_successor = \(Self.bytes(sealedSuccessor))
            WHERE token_hash = \(Self.bytes(hash)) AND rotated_at IS NULL
            RETURNING token_hash
            """
        )
        return !rotated.isEmpty
    }

    public func deleteRefreshToken(hash: Data) async throws(StorageError) {
        try await rows("DELETE FROM refresh_tokens WHERE token_hash = \(Self.bytes(hash))")
    }

    @discardableResult
    public func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int {
        try await rows("DELETE FROM refresh_tokens WHERE expires_at <= \(Self.seconds(date)) RETURNING 1").count
    }

    // MARK: Rows

    private static func authorizationCode(from row: PostgresRandomAccessRow) throws(StorageError)
        -> AuthorizationCodeRecord
    {
        AuthorizationCodeRecord(
            codeHash: try value(row, "code_hash", as: Data.self),
            clientID: try value(row, "client_id", as: String.self),
            redirectURI: try value(row, "redirect_uri", as: String.self),
            subject: try value(row, "subject", as: String.self),
            scope: try value(row, "scope", as: String.self),
            nonce: try optional(row, "nonce", as: String.self),
            codeChallenge: try optional(row, "code_challenge", as: String.self),
            authTime: try date(row, "auth_time"),
            expiresAt: try date(row, "expires_at")
        )
    }
}
