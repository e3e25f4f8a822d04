import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The claims `/userinfo` returns for an access token, and the ID token carries too (OpenID Connect Core §5.1, §5.4):
/// `sub` and `auth_level` (``AuthLevel``, from the user's identities) always; `email` and `email_verified` with the
/// `email` scope, for a user with an address; `phone_number` and `phone_number_verified` with the `phone` scope, for a
/// user who signs in with a phone number; with the `profile` scope, the standard profile
/// claims the user's profile holds (``profileClaims``, from fields of those names that are not encrypted and hold a
/// string; the URL claims ``urlClaims`` only as absolute `https` URLs), `name` falling back to the account's name, and
/// `updated_at` (the profile's last write).
package enum UserInfoClaims {
    /// The `profile` scope's claims (OpenID Connect Core §5.4) that profile fields of the same name give, when they
    /// hold a string; `updated_at` is the profile's last write instead.
    static let profileClaims: Set<String> = [
        "name", "family_name", "given_name", "middle_name", "nickname", "preferred_username", "profile", "picture",
        "website", "gender", "birthdate", "zoneinfo", "locale",
    ]

    /// The `profile` scope's claims that are URLs a relying party may link to or load (`profile`, `picture`,
    /// `website`): written and given only as absolute `https` URLs, never `javascript:` or another scheme.
    static let urlClaims: Set<String> = ["profile", "picture", "website"]

    /// Whether `text` may be the value of claim `name`: any text, but an absolute `https` URL with a host for
    /// ``urlClaims``.
    package static func accepts(_ text: String, as name: String) -> Bool {
        guard urlClaims.contains(name) else { return true }
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "https" else { return false }
        return url.host?.isEmpty == false
    }

    /// The claims for the user the token was issued for; `nil` when that user no longer exists.
    package static func claims(
        for token: AccessTokenClaims,
        store: any UserStore & ProfileStore,
        schemas: AppSchemaCache
    ) async throws(StorageError) -> [String: JSONValue]? {
        guard let user = try await store.user(id: token.subject) else { return nil }
        return try await claims(of: user, scope: Scope(token.scope), store: store, schemas: schemas)
    }

    /// `sub` and the claims `scope` grants of `user`, reading the profile and schema only with the `profile` scope.
    package static func claims(
        of user: UserRecord,
        scope: Scope,
        store: any UserStore & ProfileStore,
        schemas: AppSchemaCache
    ) async throws(StorageError) -> [String: JSONValue] {
        guard scope.contains("profile") else { return claims(of: user, scope: scope, profile: nil, schema: .empty) }
        return claims(
            of: user, scope: scope, profile: try await store.profile(userID: user.id),
            schema: try await schemas.schema(in: store))
    }

    /// `sub` and the claims `scope` grants of `user`, with `profile` read against `schema`.
    package static func claims(
        of user: UserRecord,
        scope: Scope,
        profile: ProfileRecord?,
        schema: ProfileSchema
    ) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "sub": .string(user.id), AuthLevel.claimName: .string(user.authLevel.rawValue),
        ]
        if scope.contains("email"), let email = user.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(user.emailVerified)
        }
        if scope.contains("phone"), let phone = user.phoneNumber {
            // The number of a `phone` identity was proved by a code sent to it.
            claims["phone_number"] = .string(phone)
            claims["phone_number_verified"] = .bool(true)
        }
        guard scope.contains("profile") else { return claims }
        if let name = user.name { claims["name"] = .string(name) }
        if let profile {
            for (name, value) in profile.data where profileClaims.contains(name) {
                guard let text = value.stringValue, accepts(text, as: name), let field = schema.fields[name],
                    !field.isEncrypted
                else { continue }
                claims[name] = value
            }
            claims["updated_at"] = .number(profile.updatedAt.timeIntervalSince1970.rounded(.down))
        }
        return claims
    }
}
