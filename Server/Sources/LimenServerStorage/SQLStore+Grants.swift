import Foundation

/// Grants, code redemption and revoked access tokens, written once for both dialects. Each method is one statement or
/// an ordered pair of them; in PostgreSQL the code row's lock orders a grant's insertion against a replay of its code
/// (see ``insertGrant(_:redeemedCodeHash:)``).
extension SQLStore {
    @discardableResult
    public func insertGrant(_ grant: GrantRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        !(try await execute(
            """
            INSERT INTO grants (
                id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at, dpop_jkt, amr)
            SELECT \(grant.id), \(grant.clientID), \(grant.subject), \(grant.scope), \(grant.authTime), \(grant.nonce),
                \(grant.createdAt), \(grant.expiresAt), \(grant.revokedAt), \(grant.proofKey), \(grant.methods.stored)
            WHERE \(Self.isEnabled(grant.subject))
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    /// The condition that the user with subject `subject` is not disabled: a grant is stored only for an enabled user,
    /// in the statement that stores it (SQLite's one writer orders it wholly before or after the disabling unit, which
    /// deletes the user's grants).
    static func isEnabled(_ subject: String) -> SQLQuery {
        "NOT EXISTS (SELECT 1 FROM disabled_users WHERE user_id = \(subject))"
    }

    // MARK: Authorization code redemption

    public func redeemAuthorizationCode(
        hash: Data,
        clientID: String,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption {
        let redeemed = try await execute(
            """
            UPDATE authorization_codes SET used_at = \(now), grant_id = \(grantID)
            WHERE code_hash = \(hash) AND client_id = \(clientID) AND used_at IS NULL AND expires_at > \(now)
            RETURNING *
            """
        )
        if let row = redeemed.first { return .redeemed(try AuthorizationCodeRecord(row: row)) }
        // Marking the replay first, in its own committed statement, means a grant not stored yet never will be (see
        // insertGrant), and one stored meanwhile is visible to the revocation.
        let replayed = try await execute(
            """
            UPDATE authorization_codes SET replayed_at = COALESCE(replayed_at, \(now))
            WHERE code_hash = \(hash) AND client_id = \(clientID) AND used_at IS NOT NULL
            RETURNING grant_id
            """
        )
        guard let row = replayed.first else { return .unknown }
        if let grantID = try row.optionalText("grant_id") {
            try await revokeGrant(id: grantID, at: now)
        }
        return .replayed
    }

    // MARK: Grants

    public func insertGrant(_ grant: GrantRecord, redeemedCodeHash: Data) async throws(StorageError) -> Bool {
        // In PostgreSQL, FOR UPDATE waits for a replay marking the code, then re-reads it: a replayed code stores no
        // grant; FOR KEY SHARE keeps the browser session from being deleted before the grant bound to it is stored.
        // SQLite's one writer runs the statement alone.
        !(try await execute(
            """
            INSERT INTO grants (
                id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at,
                browser_session_hash, dpop_jkt, amr)
            SELECT \(grant.id), \(grant.clientID), \(grant.subject), \(grant.scope), \(grant.authTime), \(grant.nonce),
                \(grant.createdAt), \(grant.expiresAt), \(grant.revokedAt), \(grant.browserSessionHash),
                \(grant.proofKey), \(grant.methods.stored)
            WHERE EXISTS (
                SELECT 1 FROM authorization_codes
                WHERE code_hash = \(redeemedCodeHash) AND grant_id = \(grant.id) AND replayed_at IS NULL
                \(.forUpdate)
            ) AND (\(grant.browserSessionHash == nil) OR EXISTS (
                SELECT 1 FROM browser_sessions WHERE id_hash = \(grant.browserSessionHash) \(.forKeyShare)))
            AND \(Self.isEnabled(grant.subject))
            RETURNING id
            """
        )).isEmpty
    }

    public func grant(id: String) async throws(StorageError) -> GrantRecord? {
        try await execute("SELECT * FROM grants WHERE id = \(id)").first.map { row throws(StorageError) in
            try GrantRecord(row: row)
        }
    }

    public func extendGrant(id: String, until date: Date) async throws(StorageError) {
        try await execute("UPDATE grants SET expires_at = \(.greatest)(expires_at, \(date)) WHERE id = \(id)")
    }

    public func moveSessionGrants(subject: String, from old: Data, to new: Data) async throws(StorageError) {
        try await execute(
            "UPDATE grants SET browser_session_hash = \(new) WHERE browser_session_hash = \(old) AND subject = \(subject)"
        )
    }

    @discardableResult
    public func revokeGrant(id: String, at date: Date, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            "UPDATE grants SET revoked_at = \(date) WHERE id = \(id) AND revoked_at IS NULL RETURNING id",
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func revokeGrants(subject: String, at date: Date) async throws(StorageError) -> Int {
        try await execute(
            "UPDATE grants SET revoked_at = \(date) WHERE subject = \(subject) AND revoked_at IS NULL RETURNING id"
        ).count
    }

    @discardableResult
    public func deleteExpiredGrants(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM grants WHERE expires_at <= \(date) RETURNING 1").count
    }

    // MARK: Revoked access tokens

    public func revokeAccessToken(jti: String, expiresAt: Date) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO revoked_access_tokens (jti, expires_at) VALUES (\(jti), \(expiresAt))
            ON CONFLICT (jti) DO NOTHING
            """
        )
    }

    public func isAccessTokenRevoked(jti: String) async throws(StorageError) -> Bool {
        !(try await execute("SELECT 1 FROM revoked_access_tokens WHERE jti = \(jti)")).isEmpty
    }

    @discardableResult
    public func deleteExpiredAccessTokenRevocations(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM revoked_access_tokens WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension GrantRecord {
    /// The grant in `row`, whose grant columns are named with `columnPrefix` (`grant_id`, `grant_client_id`, … when
    /// joined to another table).
    init(row: some SQLRow, columnPrefix: String = "") throws(StorageError) {
        self.init(
            id: try row.text(columnPrefix + "id"),
            clientID: try row.text(columnPrefix + "client_id"),
            subject: try row.text(columnPrefix + "subject"),
            scope: try row.text(columnPrefix + "scope"),
            authTime: try row.date(columnPrefix + "auth_time"),
            nonce: try row.optionalText(columnPrefix + "nonce"),
            createdAt: try row.date(columnPrefix + "created_at"),
            expiresAt: try row.date(columnPrefix + "expires_at"),
            revokedAt: try row.optionalDate(columnPrefix + "revoked_at"),
            browserSessionHash: try row.optionalData(columnPrefix + "browser_session_hash"),
            proofKey: try row.optionalText(columnPrefix + "dpop_jkt"),
            methods: AuthenticationMethods(stored: try row.optionalText(columnPrefix + "amr"))
        )
    }
}
