import Foundation
import LimenOIDC

/// Reads an `id_token_hint` (OpenID Connect Core §3.1.2.1, RP-Initiated Logout §2): an ID token this server issued,
/// possibly expired.
struct IDTokenHint: Sendable, Equatable {
    /// Who the token is about.
    let subject: String
    /// The clients it was issued to (`aud`).
    let audiences: [String]
    /// The `azp` claim, when present.
    let authorizedParty: String?

    /// The client it was issued to, when it names exactly one: `azp`, else a single `aud`.
    var clientID: String? {
        authorizedParty ?? (audiences.count == 1 ? audiences[0] : nil)
    }

    /// The hint, when `token`'s signature verifies against the provider's published keys and its issuer is this
    /// provider; `nil` otherwise. Expiry is not checked: an old ID token still says who signed in.
    static func verify(_ token: String, keys: KeyRing, issuer: String, now: Date) async -> IDTokenHint? {
        let keySet = JSONWebKeySet(keys: keys.publishedKeys(at: now).map { JSONWebKey(parameters: $0.publicJWK) })
        guard
            let payload = try? await JWSVerifier.verify(
                compact: token,
                jwks: keySet,
                allowedAlgorithms: [.es256, .rs256]
            ),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: payload),
            claims["iss"]?.stringValue == issuer,
            let subject = claims["sub"]?.stringValue, !subject.isEmpty
        else { return nil }
        return IDTokenHint(
            subject: subject,
            audiences: claims["aud"]?.stringArrayValue ?? [],
            authorizedParty: claims["azp"]?.stringValue
        )
    }
}
