import Foundation
import PostgresNIO

/// Access-token state in PostgreSQL: the grant row with the revocation list's verdict, one statement.
extension PostgresStore {
    public func accessTokenState(grantID: String, jti: String) async throws(StorageError) -> AccessTokenState? {
        let rows = try await rows(AccessTokenStateStatement(grantID: grantID, jti: jti))
        guard let row = rows.first else { return nil }
        return AccessTokenState(
            grant: try Self.grant(from: row), isTokenRevoked: try Self.value(row, "token_revoked", as: Bool.self))
    }
}
