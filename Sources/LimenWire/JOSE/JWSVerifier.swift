import Foundation
import JWTKit

/// The signature step of ID token validation on its own: algorithm allow-list, key selection and verification.
///
/// LimenOIDC's `IDTokenValidator` runs the same steps (adding one key-set refresh on an unknown key and the claim
/// checks). Use this directly for a JWS whose payload is not an ID token, such as the RFC 7515 examples. The
/// cryptography is jwt-kit's; Limen only decides which key may be used.
///
/// ```swift
/// let payload = try await JWSVerifier.verify(compact: jws, jwks: keySet, allowedAlgorithms: [.es256])
/// ```
public enum JWSVerifier {
    /// Verifies a compact JWS against a key set and returns its payload bytes.
    ///
    /// The header's `alg` must be in `allowedAlgorithms` (checked before any key is looked at); the key is chosen
    /// as described in LimenOIDC's `IDTokenValidator`; a failing signature is
    /// ``IDTokenValidationError/invalidSignature``.
    public static func verify(
        compact: String,
        jwks: JSONWebKeySet,
        allowedAlgorithms: Set<JWSAlgorithm>
    ) async throws(IDTokenValidationError) -> Data {
        let (jws, algorithm) = try parse(compact, allowedAlgorithms: allowedAlgorithms)
        let key = try KeySelection.key(for: algorithm, kid: jws.keyID, in: jwks)
        try await checkSignature(of: jws, algorithm: algorithm, key: key)
        return Data(jws.payload)
    }

    /// Takes a compact JWS apart and checks its `alg` against the allow-list, touching no key.
    package static func parse(
        _ compact: String,
        allowedAlgorithms: Set<JWSAlgorithm>
    ) throws(IDTokenValidationError) -> (CompactJWS, JWSAlgorithm) {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(compact)
        } catch {
            throw .malformed(error.errorDescription ?? error.code)
        }
        guard let name = jws.algorithm else { throw .algorithmNotAllowed("(absent)") }
        guard let algorithm = JWSAlgorithm(rawValue: name), allowedAlgorithms.contains(algorithm) else {
            throw .algorithmNotAllowed(name)
        }
        return (jws, algorithm)
    }

    /// Verifies the signature with jwt-kit, through a key collection holding only the selected key.
    package static func checkSignature(
        of jws: CompactJWS,
        algorithm: JWSAlgorithm,
        key: JSONWebKey
    ) async throws(IDTokenValidationError) {
        try checkSignature(of: jws, with: try await loadVerifier(key: key, algorithm: algorithm))
    }

    /// Verifies the signature with an already loaded verifier.
    package static func checkSignature(of jws: CompactJWS, with verifier: any JWTAlgorithm)
        throws(IDTokenValidationError)
    {
        let verified = (try? verifier.verify(jws.signature, signs: jws.signingInput)) ?? false
        guard verified else { throw .invalidSignature }
    }

    /// Loads the selected key into jwt-kit, pinned to `algorithm` (the costly step that ``JWKSCache`` caches).
    package static func loadVerifier(key: JSONWebKey, algorithm: JWSAlgorithm) async throws(IDTokenValidationError)
        -> any JWTAlgorithm
    {
        let verifier: any JWTAlgorithm
        do {
            let kid = JWKIdentifier(string: "selected")
            let collection = JWTKeyCollection()
            try await collection.add(jwk: publicJWK(from: key, algorithm: algorithm, kid: kid))
            verifier = try await collection.getKey(for: kid, alg: algorithm.rawValue)
        } catch {
            throw .jwksInvalid("the \(algorithm.keyType) key could not be loaded")
        }
        guard verifier.name == algorithm.rawValue else {
            throw .jwksInvalid("the key was loaded for \(verifier.name), not \(algorithm.rawValue)")
        }
        return verifier
    }

    /// A jwt-kit JWK carrying only the public members of `key`, pinned to `algorithm`.
    ///
    /// Private members a provider may have published by mistake are dropped, so verification always uses a public key.
    private static func publicJWK(from key: JSONWebKey, algorithm: JWSAlgorithm, kid: JWKIdentifier) throws -> JWK {
        let publicMembers = ["kty", "crv", "n", "e", "x", "y"]
        var members = key.parameters.filter { publicMembers.contains($0.key) }
        members["alg"] = .string(algorithm.rawValue)
        members["kid"] = .string(kid.string)
        let json = try JSONEncoder().encode(members)
        return try JSONDecoder().decode(JWK.self, from: json)
    }
}
