import Foundation

/// Access-token state in PostgreSQL: the shared statement, prepared once per connection.
extension PostgresStore {
    public func accessTokenState(grantID: String, jti: String) async throws(StorageError) -> AccessTokenState? {
        try await rows(AccessTokenStateStatement(grantID: grantID, jti: jti)).first.map { row throws(StorageError) in
            try AccessTokenState(row: row)
        }
    }
}
