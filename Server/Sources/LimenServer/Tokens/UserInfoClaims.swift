import Foundation
import LimenWire

/// The claims `/userinfo` returns for an access token, and the ID token carries too (OpenID Connect Core §5.1, §5.4):
/// `sub` always, `email` and `email_verified` with the `email` scope, `name` (when the user gave one) with the
/// `profile` scope.
enum UserInfoClaims {
    /// The claims for the user the token was issued for; `nil` when that user no longer exists.
    static func claims(
        for token: AccessTokenClaims,
        store: any Store
    ) async throws(StorageError) -> [String: JSONValue]? {
        guard let user = try await store.user(id: token.subject) else { return nil }
        return claims(of: user, scope: Scope(token.scope))
    }

    /// `sub` and the claims `scope` grants of `user`.
    static func claims(of user: UserRecord, scope: Scope) -> [String: JSONValue] {
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
