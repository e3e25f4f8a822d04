import Foundation
import PostgresNIO

/// Grants, code redemption and revoked access tokens in PostgreSQL. Each method is one statement or an
/// ordered pair of autocommitted statements; the code row's lock orders a grant's insertion against a replay of its
/// code (see ``insertGrant(_:redeemedCodeHash:)``).
extension PostgresStore {
    // MARK: Authorization code redemption

    public func redeemAuthorizationCode(
        hash: Data,
        clientID: String,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption {
        let seconds = Self.seconds(now)
        let redeemed = try await rows(
            """
            UPDATE authorization_codes SET used_at = \(seconds), grant_id = \(grantID)
            WHERE code_hash = \(Self.bytes(hash)) AND client_id = \(clientID) AND used_at IS NULL
                AND expires_at > \(seconds)
            RETURNING *
            """
        )
        if let row = redeemed.first { return .redeemed(try Self.authorizationCode(from: row)) }
        // Its own statement, committed before the grant is revoked: a grant inserted meanwhile is then visible.
        let replayed = try await rows(
            """
            UPDATE authorization_codes SET replayed_at = COALESCE(replayed_at, \(seconds))
            WHERE code_hash = \(Self.bytes(hash)) AND client_id = \(clientID) AND used_at IS NOT NULL
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
        // FOR UPDATE waits for a replay marking the code, then re-reads it: a replayed code stores no grant. FOR KEY
        // SHARE keeps the browser session from being deleted before the grant bound to it is stored.
        let session = grant.browserSessionHash.map(Self.bytes)
        let inserted = try await rows(
            """
            WITH code AS (
                SELECT 1 FROM authorization_codes
                WHERE code_hash = \(Self.bytes(redeemedCodeHash)) AND grant_id = \(grant.id) AND replayed_at IS NULL
                FOR UPDATE
            )
            INSERT INTO grants (
                id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at,
                browser_session_hash)
            SELECT \(grant.id), \(grant.clientID), \(grant.subject), \(grant.scope), \(Self.seconds(grant.authTime)),
                \(grant.nonce), \(Self.seconds(grant.createdAt)), \(Self.seconds(grant.expiresAt)),
                \(grant.revokedAt.map(Self.seconds)), \(session)
            WHERE EXISTS (SELECT 1 FROM code)
                AND (\(session)::BYTEA IS NULL OR EXISTS (
                    SELECT 1 FROM browser_sessions WHERE id_hash = \(session) FOR KEY SHARE))
            RETURNING id
            """
        )
        return !inserted.isEmpty
    }

    public func grant(id: String) async throws(StorageError) -> GrantRecord? {
        try await rows("SELECT * FROM grants WHERE id = \(id)").first.map(Self.grant(from:))
    }

    /// A row of `grants`.
    static func grant(from row: PostgresRandomAccessRow) throws(StorageError) -> GrantRecord {
        try grant(from: row, columnPrefix: "")
    }

    public func extendGrant(id: String, until date: Date) async throws(StorageError) {
        try await rows(
            "UPDATE grants SET expires_at = GREATEST(expires_at, \(Self.seconds(date))) WHERE id = \(id)")
    }

    public func moveSessionGrants(subject: String, from old: Data, to new: Data) async throws(StorageError) {
        try await rows(
            """
            UPDATE grants SET browser_session_hash = \(Self.bytes(new))
            WHERE browser_session_hash = \(Self.bytes(old)) AND subject = \(subject)
            """
        )
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

    // MARK: Rows

    /// The grant in `row`, whose grant columns are named with `columnPrefix` (`grant_id`, `grant_client_id`, … when
    /// joined to another table).
    static func grant(from row: PostgresRandomAccessRow, columnPrefix: String) throws(StorageError) -> GrantRecord {
        GrantRecord(
            id: try value(row, columnPrefix + "id", as: String.self),
            clientID: try value(row, columnPrefix + "client_id", as: String.self),
            subject: try value(row, columnPrefix + "subject", as: String.self),
            scope: try value(row, columnPrefix + "scope", as: String.self),
            authTime: try date(row, columnPrefix + "auth_time"),
            nonce: try optional(row, columnPrefix + "nonce", as: String.self),
            createdAt: try date(row, columnPrefix + "created_at"),
            expiresAt: try date(row, columnPrefix + "expires_at"),
            revokedAt: try optionalDate(row, columnPrefix + "revoked_at"),
            browserSessionHash: try optional(row, columnPrefix + "browser_session_hash", as: Data.self)
        )
    }

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
            expiresAt: try date(row, "expires_at"),
            browserSessionHash: try optional(row, "browser_session_hash", as: Data.self)
        )
    }
}
