import Foundation
import LimenOIDC

/// Reads an `id_token_hint` (OpenID Connect Core §3.1.2.1): an ID token this server issued, possibly expired.
enum IDTokenHint {
    /// The token's subject, when its signature verifies against the provider's published keys and its issuer is
    /// this provider; `nil` otherwise. Expiry is not checked: an old ID token still says who signed in.
    static func subject(of token: String, keys: KeyRing, issuer: String, now: Date) async -> String? {
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
        return subject
    }
}
