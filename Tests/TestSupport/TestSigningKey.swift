import Crypto
import Foundation
import JWTKit
import LimenOIDC

/// A signing key for tests, made with jwt-kit, that signs arbitrary claims with chosen header fields.
///
/// ```swift
/// let key = try await TestSigningKey.es256(kid: "k1")
/// let token = try key.sign(["iss": "https://id.example.com", "sub": "alice"])
/// await transport.respond(to: jwksURL, json: TestSigningKey.jwksJSON([key]))
/// ```
public struct TestSigningKey: Sendable {
    /// The JWS `alg` this key signs with.
    public let algorithm: String
    /// The key ID put in the JWK and, unless overridden, in token headers.
    public let kid: String?
    /// The public JWK members (`kty`, `kid`, key material; no `alg` or `use` unless added).
    public let publicJWK: [String: JSONValue]
    private let signer: any JWTAlgorithm

    private init(algorithm: String, kid: String?, publicJWK: [String: JSONValue], signer: any JWTAlgorithm) {
        self.algorithm = algorithm
        self.kid = kid
        var jwk = publicJWK
        jwk["kid"] = kid.map(JSONValue.string)
        self.publicJWK = jwk
        self.signer = signer
    }

    /// An RS256 key (a fixed 2048-bit test key, as generating RSA keys is slow).
    public static func rs256(kid: String? = "rsa-1") async throws -> TestSigningKey {
        let key = try JWTKit.Insecure.RSA.PrivateKey(pem: TestRSAKey.pem)
        let signer = try await loaded { await $0.add(rsa: key, digestAlgorithm: .sha256, kid: $1) }
        return try TestSigningKey(algorithm: "RS256", kid: kid, publicJWK: rsaJWK(key), signer: signer)
    }

    /// A PS256 key (the same fixed RSA test key as ``rs256(kid:)``).
    public static func ps256(kid: String? = "pss-1") async throws -> TestSigningKey {
        let key = try JWTKit.Insecure.RSA.PrivateKey(pem: TestRSAKey.pem)
        let signer = try await loaded { await $0.add(pss: key, digestAlgorithm: .sha256, kid: $1) }
        return try TestSigningKey(algorithm: "PS256", kid: kid, publicJWK: rsaJWK(key), signer: signer)
    }

    /// A freshly generated ES256 (P-256) key.
    public static func es256(kid: String? = "ec-1") async throws -> TestSigningKey {
        let key = ES256PrivateKey()
        let signer = try await loaded { await $0.add(ecdsa: key, kid: $1) }
        guard let parameters = key.parameters else { throw TestKeyError.noPublicParameters }
        let jwk: [String: JSONValue] = [
            "kty": "EC", "crv": "P-256", "x": .string(parameters.x), "y": .string(parameters.y),
        ]
        return TestSigningKey(algorithm: "ES256", kid: kid, publicJWK: jwk, signer: signer)
    }

    /// A freshly generated EdDSA (Ed25519) key.
    public static func edDSA(kid: String? = "ed-1") async throws -> TestSigningKey {
        let key = try EdDSA.PrivateKey(curve: .ed25519)
        let signer = try await loaded { await $0.add(eddsa: key, kid: $1) }
        let jwk: [String: JSONValue] = [
            "kty": "OKP", "crv": "Ed25519", "x": .string(TestBase64URL.encode(key.publicKey.rawRepresentation)),
        ]
        return TestSigningKey(algorithm: "EdDSA", kid: kid, publicJWK: jwk, signer: signer)
    }

    /// This key's public JWK with extra members (such as `alg` or `use`) set.
    public func jwk(adding members: [String: JSONValue]) -> [String: JSONValue] {
        publicJWK.merging(members) { _, new in new }
    }

    /// A JWKS document holding the given public JWKs.
    public static func jwksJSON(_ jwks: [[String: JSONValue]]) -> String {
        TestJSON.string(.object(["keys": .array(jwks.map(JSONValue.object))]))
    }

    /// A JWKS document holding these keys' public JWKs.
    public static func jwksJSON(_ keys: [TestSigningKey]) -> String {
        jwksJSON(keys.map(\.publicJWK))
    }

    /// Signs `claims` as a compact JWT.
    ///
    /// The header is `{"alg": algorithm, "kid": kid}` (no `kid` when `includeKID` is false) merged with `header`,
    /// so a test can override `alg` or add anything else; the signature is always this key's.
    public func sign(
        _ claims: [String: JSONValue],
        header: [String: JSONValue] = [:],
        includeKID: Bool = true
    ) throws -> String {
        var fields: [String: JSONValue] = ["alg": .string(algorithm), "typ": "JWT"]
        if includeKID, let kid { fields["kid"] = .string(kid) }
        fields.merge(header) { _, new in new }
        let signingInput = TestJWT.signingInput(header: fields, claims: claims)
        return signingInput + "." + TestBase64URL.encode(try signer.sign(Data(signingInput.utf8)))
    }

    private static func loaded(
        _ add: (JWTKeyCollection, JWKIdentifier) async -> JWTKeyCollection
    ) async throws -> any JWTAlgorithm {
        let kid = JWKIdentifier(string: "test")
        return try await add(JWTKeyCollection(), kid).getKey(for: kid)
    }

    private static func rsaJWK(_ key: JWTKit.Insecure.RSA.PrivateKey) throws -> [String: JSONValue] {
        let primitives = try key.publicKey.getKeyPrimitives()
        return [
            "kty": "RSA",
            "n": .string(TestBase64URL.encode(primitives.modulus)),
            "e": .string(TestBase64URL.encode(primitives.publicExponent)),
        ]
    }
}

/// A failure building a test key.
public enum TestKeyError: Error {
    /// jwt-kit returned no public parameters for an EC key.
    case noPublicParameters
}
