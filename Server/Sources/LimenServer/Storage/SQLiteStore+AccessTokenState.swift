import Foundation
import SQLiteNIO

/// Access-token state in SQLite: the grant row with the revocation list's verdict, one statement on the read
/// connection (it is read on every `/introspect`, `/userinfo` and `/revoke`).
extension SQLiteStore {
    public func accessTokenState(grantID: String, jti: String) async throws(StorageError) -> AccessTokenState? {
        let rows = try await readRows(
            """
            SELECT grants.*, EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ?) AS token_revoked
            FROM grants WHERE id = ?
            """,
            [.text(jti), .text(grantID)]
        )
        guard let row = rows.first else { return nil }
        guard let revoked = row.column("token_revoked")?.bool else { throw .corruptRow("token_revoked is missing") }
        return AccessTokenState(grant: try Self.grant(from: row), isTokenRevoked: revoked)
    }
}
