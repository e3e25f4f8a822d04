import Foundation

/// Access-token state, written once for both dialects: the grant row with the revocation list's verdict, one statement
/// on the read path (it is read on every `/introspect`, `/userinfo` and `/revoke`). PostgreSQL runs the same statement
/// prepared (``AccessTokenStateStatement``).
extension SQLStore {
    public func accessTokenState(grantID: String, jti: String) async throws(StorageError) -> AccessTokenState? {
        try await read(
            """
            SELECT grants.*, EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = \(jti)) AS token_revoked
            FROM grants WHERE id = \(grantID)
            """
        ).first.map { row throws(StorageError) in try AccessTokenState(row: row) }
    }
}

extension AccessTokenState {
    /// The state in a row of `grants` with a `token_revoked` column.
    init(row: some SQLRow) throws(StorageError) {
        guard try row.sqlValue("token_revoked") != nil else { throw .corruptRow("token_revoked is missing") }
        self.init(grant: try GrantRecord(row: row), isTokenRevoked: try row.bool("token_revoked"))
    }
}
