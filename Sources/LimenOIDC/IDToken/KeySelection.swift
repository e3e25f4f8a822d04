import Foundation

/// Chooses the one key of a JWKS that may verify a token (OpenID Connect Core §10.1).
package enum KeySelection {
    /// The key for a token signed with `algorithm` whose header names `kid` (or none).
    ///
    /// With a `kid`, only keys with that ID are candidates; without one, every key is. Of the candidates, only those
    /// that ``JSONWebKey/canVerify(_:)`` the algorithm count. Exactly one must remain: none is
    /// ``IDTokenValidationError/keyNotFound(kid:)``, several is ``IDTokenValidationError/ambiguousKey``.
    package static func key(
        for algorithm: JWSAlgorithm,
        kid: String?,
        in keySet: JSONWebKeySet
    ) throws(IDTokenValidationError) -> JSONWebKey {
        let candidates = keySet.keys.filter { key in
            (kid == nil || key.keyID == kid) && key.canVerify(algorithm)
        }
        guard let key = candidates.first else { throw .keyNotFound(kid: kid) }
        guard candidates.count == 1 else { throw .ambiguousKey }
        return key
    }
}
