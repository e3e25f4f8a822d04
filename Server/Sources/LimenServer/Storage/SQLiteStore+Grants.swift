import Foundation
import SQLiteNIO

/// Grants, code redemption and revoked access tokens in SQLite: every method is one statement (or an
/// ordered pair of them), so concurrent requests need no transaction.
extension SQLiteStore {
    // MARK: Authorization code redemption

    public func redeemAuthorizationCode(
        hash: Data,
        clientID: String,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption {
        let redeemed = try await query(
            """
            UPDATE authorization_codes SET used_at = ?, grant_id = ?
            WHERE code_hash = ? AND client_id = ? AND used_at IS NULL AND expires_at > ?
            RETURNING *
            """,
            [Self.time(now), .text(grantID), Self.blob(hash), .text(clientID), Self.time(now)]
        )
        if let row = redeemed.first { return .redeemed(try Self.authorizationCode(from: row)) }
        // Marking the replay first means a grant not stored yet never will be (see insertGrant).
        let replayed = try await query(
            """
            UPDATE authorization_codes SET replayed_at = COALESCE(replayed_at, ?)
            WHERE code_hash = ? AND client_id = ? AND used_at IS NOT NULL
            RETURNING grant_id
            """,
            [Self.time(now), Self.blob(hash), .text(clientID)]
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
            INSERT INTO grants (
                id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at,
                browser_session_hash)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
            WHERE EXISTS (
                SELECT 1 FROM authorization_codes WHERE code_hash = ? AND grant_id = ? AND replayed_at IS NULL
            ) AND (? IS NULL OR EXISTS (SELECT 1 FROM browser_sessions WHERE id_hash = ?))
            RETURNING id
            """,
            [
                .text(grant.id), .text(grant.clientID), .text(grant.subject), .text(grant.scope),
                Self.time(grant.authTime), grant.nonce.map(SQLiteData.text) ?? .null, Self.time(grant.createdAt),
                Self.time(grant.expiresAt), grant.revokedAt.map(Self.time) ?? .null,
                Self.blob(grant.browserSessionHash), Self.blob(redeemedCodeHash), .text(grant.id),
                Self.blob(grant.browserSessionHash), Self.blob(grant.browserSessionHash),
            ]
        )
        return !rows.isEmpty
    }

    public func grant(id: String) async throws(StorageError) -> GrantRecord? {
        try await query("SELECT * FROM grants WHERE id = ?", [.text(id)]).first.map(Self.grant(from:))
    }

    /// A row of `grants`.
    static func grant(from row: some SQLiteColumns) throws(StorageError) -> GrantRecord {
        try grant(from: row, columnPrefix: "")
    }

    public func extendGrant(id: String, until date: Date) async throws(StorageError) {
        try await query(
            "UPDATE grants SET expires_at = MAX(expires_at, ?) WHERE id = ?",
            [Self.time(date), .text(id)]
        )
    }

    public func moveSessionGrants(subject: String, from old: Data, to new: Data) async throws(StorageError) {
        try await query(
            "UPDATE grants SET browser_session_hash = ? WHERE browser_session_hash = ? AND subject = ?",
            [Self.blob(new), Self.blob(old), .text(subject)])
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

    // MARK: Rows

    /// A stored time that may be absent.
    static func optionalDate(_ row: some SQLiteColumns, _ column: String) -> Date? {
        row.column(column)?.integer.map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The grant in `row`, whose grant columns are named with `columnPrefix` (`grant_id`, `grant_client_id`, … when
    /// joined to another table).
    static func grant(from row: some SQLiteColumns, columnPrefix: String) throws(StorageError) -> GrantRecord {
        GrantRecord(
            id: try text(row, columnPrefix + "id"),
            clientID: try text(row, columnPrefix + "client_id"),
            subject: try text(row, columnPrefix + "subject"),
            scope: try text(row, columnPrefix + "scope"),
            authTime: try date(row, columnPrefix + "auth_time"),
            nonce: row.column(columnPrefix + "nonce")?.string,
            createdAt: try date(row, columnPrefix + "created_at"),
            expiresAt: try date(row, columnPrefix + "expires_at"),
            revokedAt: optionalDate(row, columnPrefix + "revoked_at"),
            browserSessionHash: try optionalData(row, columnPrefix + "browser_session_hash")
        )
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
            expiresAt: try date(row, "expires_at"),
            browserSessionHash: try optionalData(row, "browser_session_hash")
        )
    }
}
