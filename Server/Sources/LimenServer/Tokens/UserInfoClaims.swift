import Foundation
import LimenOIDC

/// The claims `/userinfo` returns for an access token (OpenID Connect Core §5.1, §5.4): `sub` always, `email` and
/// `email_verified` with the `email` scope, `name` (when the user gave one) with the `profile` scope.
enum UserInfoClaims {
    /// The claims for the user the token was issued for; `nil` when that user no longer exists.
    static func claims(
        for token: AccessTokenClaims,
        store: any Store
    ) async throws(StorageError) -> [String: JSONValue]? {
        guard let user = try await store.user(id: token.subject) else { return nil }
        let scope = Scope(token.scope)
        var claims: [String: JSONValue] = ["sub": .string(user.id)]
        if scope.contains("email") {
            claims["email"] = .string(user.email)
            claims["email_verified"] = .bool(user.emailVerified)
        }
        if scope.contains("profile"), let name = user.name {
            claims["name"] = .string(name)
        }
        return claims
    }
}
