import PostgresNIO

/// A statement on a hot path, prepared once per connection: postgres-nio keeps it under its type's name, so
/// PostgreSQL parses and plans it once instead of on every request. Rows come back as ``PostgresStore``'s other
/// queries return them.
///
/// Its columns are named one by one, never `*`: a prepared plan refuses to run once a migration has changed what `*`
/// stands for.
protocol PostgresHotStatement: PostgresPreparedStatement where Row == PostgresRandomAccessRow {}

extension PostgresHotStatement {
    /// The row, by column name.
    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
}

/// A grant and whether one of its access tokens (`jti`) is revoked: ``AccessTokenStateStore``, on every
/// `/introspect`, `/userinfo` and `/revoke` with an access token.
struct AccessTokenStateStatement: PostgresHotStatement {
    static let sql = """
        SELECT id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at, browser_session_hash,
            EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = $2) AS token_revoked
        FROM grants WHERE id = $1
        """

    /// The grant's ID.
    let grantID: String
    /// The access token's `jti`.
    let jti: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(grantID)
        bindings.append(jti)
        return bindings
    }
}
