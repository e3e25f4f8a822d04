import Crypto
import CryptoExtras
import Foundation
import Limen
import LimenOIDC

/// Answers every request with one fixed JSON body (the JWKS), without any network.
struct StubTransport: HTTPTransport {
    let body: Data

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// A key that signs ID tokens for one JWS algorithm, with its public JWK.
struct BenchmarkKey {
    let algorithm: String
    let kid: String
    let publicJWK: [String: String]
    let sign: (Data) throws -> Data
    /// The bare signature check (swift-crypto, as jwt-kit calls it): signature, then signed bytes.
    let verify: (Data, Data) -> Bool

    static func rs256() throws -> BenchmarkKey {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try key.publicKey.getKeyPrimitives()
        return BenchmarkKey(
            algorithm: "RS256", kid: "rsa",
            publicJWK: [
                "kty": "RSA", "n": Base64URL.encode(primitives.modulus),
                "e": Base64URL.encode(primitives.publicExponent),
            ],
            sign: { try key.signature(for: SHA256.hash(data: $0), padding: .insecurePKCS1v1_5).rawRepresentation },
            verify: { signature, input in
                key.publicKey.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input),
                    padding: .insecurePKCS1v1_5)
            })
    }

    static func es256() -> BenchmarkKey {
        let key = P256.Signing.PrivateKey()
        let raw = key.publicKey.rawRepresentation
        return BenchmarkKey(
            algorithm: "ES256", kid: "ec",
            publicJWK: [
                "kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)),
                "y": Base64URL.encode(raw.suffix(32)),
            ],
            sign: { try key.signature(for: $0).rawRepresentation },
            verify: { signature, input in
                (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map {
                    key.publicKey.isValidSignature($0, for: input)
                } ?? false
            })
    }

    static func edDSA() -> BenchmarkKey {
        let key = Curve25519.Signing.PrivateKey()
        return BenchmarkKey(
            algorithm: "EdDSA", kid: "ed",
            publicJWK: ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(key.publicKey.rawRepresentation)],
            sign: { try key.signature(for: $0) },
            verify: { signature, input in key.publicKey.isValidSignature(signature, for: input) })
    }

    /// A compact JWS over `claims`.
    func token(claims: [String: JSONValue]) throws -> String {
        let header: JSONValue = .object(["alg": .string(algorithm), "kid": .string(kid), "typ": .string("JWT")])
        let encoder = JSONEncoder()
        let input =
            Base64URL.encode(try encoder.encode(header)) + "."
            + Base64URL.encode(try encoder.encode(JSONValue.object(claims)))
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }

    /// The JWK with its `kid`.
    var jwk: [String: String] { publicJWK.merging(["kid": kid]) { _, new in new } }
}

/// base64url without padding (RFC 7515 §2).
enum Base64URL {
    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A signed-in session that stays valid for a day.
enum BenchmarkSession {
    static let issuer = URL(string: "https://id.example.com")!
    static let clientID = "benchmark-client"

    static var tokens: TokenSet {
        TokenSet(
            accessToken: "access-token-for-the-benchmark", refreshToken: "refresh-token", idToken: nil,
            expiresAt: Date().addingTimeInterval(86_400), scope: "openid", subject: "alice",
            claims: ["sub": .string("alice"), "email": .string("alice@example.com")])
    }

    /// Writes the session where ``AuthClient`` reads it (the `session` entry of the store).
    static func store(in store: any SecureStore) async throws {
        try await store.write(try JSONEncoder().encode(tokens), for: "default.session")
    }

    static func client(store: any SecureStore) -> AuthClient {
        AuthClient(configuration: Configuration(issuer: issuer, clientID: clientID, store: store))
    }

    /// A client over a memory store holding the session, restored.
    static func signedInClient() async throws -> AuthClient {
        let memory = MemoryStore()
        try await store(in: memory)
        let client = client(store: memory)
        if let error = await client.restore() { throw error }
        return client
    }
}
