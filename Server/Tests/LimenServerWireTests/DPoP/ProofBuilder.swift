import Crypto
import Foundation
import LimenWire

/// A DPoP proof put together by hand, valid by default, so that a test can change one thing and sign it (or not).
struct ProofBuilder {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let method = "POST"
    static let url = "https://server.example.com/token"
    static let es256Key = P256.Signing.PrivateKey()
    static let ed25519Key = Curve25519.Signing.PrivateKey()

    var header: [String: JSONValue]
    var claims: [String: JSONValue] = [
        "jti": .string("e1j3V_bKic8-LAEB"), "htm": .string(method), "htu": .string(url),
        "iat": .number(now.timeIntervalSince1970),
    ]

    /// A proof for `es256Key`: typ dpop+jwt, alg ES256, its public JWK.
    static func es256() -> ProofBuilder {
        ProofBuilder(header: ["typ": .string("dpop+jwt"), "alg": .string("ES256"), "jwk": .object(jwk(of: es256Key))])
    }

    /// A proof for `ed25519Key`: typ dpop+jwt, alg EdDSA, its public JWK.
    static func edDSA() -> ProofBuilder {
        let jwk: [String: JSONValue] = [
            "kty": .string("OKP"), "crv": .string("Ed25519"),
            "x": .string(Base64URL.encode(ed25519Key.publicKey.rawRepresentation)),
        ]
        return ProofBuilder(header: ["typ": .string("dpop+jwt"), "alg": .string("EdDSA"), "jwk": .object(jwk)])
    }

    /// The public JWK of a P-256 key.
    static func jwk(of key: P256.Signing.PrivateKey) -> [String: JSONValue] {
        let raw = key.publicKey.rawRepresentation
        return [
            "kty": .string("EC"), "crv": .string("P-256"), "x": .string(Base64URL.encode(raw.prefix(32))),
            "y": .string(Base64URL.encode(raw.suffix(32))),
        ]
    }

    /// The builder with `changes` applied to the header (a `nil` value removes the member).
    func header(_ changes: [String: JSONValue?]) -> ProofBuilder {
        var copy = self
        for (name, value) in changes { copy.header[name] = value }
        return copy
    }

    /// The builder with `changes` applied to the claims (a `nil` value removes the member).
    func claims(_ changes: [String: JSONValue?]) -> ProofBuilder {
        var copy = self
        for (name, value) in changes { copy.claims[name] = value }
        return copy
    }

    /// `BASE64URL(header) . BASE64URL(claims)`.
    var signingInput: String {
        Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized())
    }

    /// The proof signed with ES256 by `key`.
    func signed(by key: P256.Signing.PrivateKey = es256Key) throws -> String {
        let input = signingInput
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    /// The proof signed with EdDSA by `key`.
    func signed(by key: Curve25519.Signing.PrivateKey) throws -> String {
        let input = signingInput
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
    }

    /// The proof with `signature` as its signature (empty for alg none).
    func unsigned(signature: [UInt8] = []) -> String {
        signingInput + "." + Base64URL.encode(signature)
    }
}
