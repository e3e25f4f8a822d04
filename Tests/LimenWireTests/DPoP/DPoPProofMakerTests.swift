import Crypto
import Foundation
import LimenTestSupport
import LimenWire
import TestSupport
import Testing

/// A proof taken apart: its header and claims as JSON, nothing verified.
struct ProofParts {
    let header: [String: JSONValue]
    let claims: [String: JSONValue]

    init(_ proof: String) throws {
        let jwt = try UnverifiedJWT(proof)
        (header, claims) = (jwt.header, jwt.claims)
    }
}

@Suite("DPoP proofs made by the SDK (RFC 9449 §4.2)")
struct DPoPProofMakerTests {
    static let key = P256.Signing.PrivateKey()
    static let maker = DPoPProofMaker(privateKey: key)
    static let now = Date(timeIntervalSince1970: 1_700_000_000.75)
    static let tokenEndpoint = URL(string: "https://server.example.com/token")!

    @Test("the header is typ dpop+jwt, alg ES256 and the public key's kty, crv, x and y, nothing else")
    func header() throws {
        let parts = try ProofParts(try Self.maker.proof(method: "POST", url: Self.tokenEndpoint, now: Self.now))
        let raw = Self.key.publicKey.rawRepresentation
        let jwk: JSONValue = [
            "kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(raw.prefix(32))),
            "y": .string(Base64URL.encode(raw.suffix(32))),
        ]
        #expect(parts.header == ["typ": "dpop+jwt", "alg": "ES256", "jwk": jwk])
        #expect(Self.maker.publicJWK.parameters == jwk.objectValue)
        #expect(Self.maker.thumbprint == Self.maker.publicJWK.thumbprint)
    }

    @Test("the claims are jti, htm, htu without query and fragment, and iat in whole seconds")
    func claims() throws {
        let url = URL(string: "https://server.example.com/token?prompt=none&x=1#fragment")!
        let parts = try ProofParts(try Self.maker.proof(method: "POST", url: url, now: Self.now))
        #expect(Set(parts.claims.keys) == ["jti", "htm", "htu", "iat"])
        #expect(parts.claims["htm"] == "POST")
        #expect(parts.claims["htu"] == "https://server.example.com/token")
        #expect(parts.claims["iat"] == 1_700_000_000)
        let jti = try #require(parts.claims["jti"]?.stringValue)
        #expect(try #require(Base64URL.decode(jti)).count >= 16)
    }

    @Test("every proof has a jti of its own")
    func freshJTI() throws {
        let jtis = try (0..<50).map { _ in
            try ProofParts(try Self.maker.proof(method: "GET", url: Self.tokenEndpoint)).claims["jti"]
        }
        #expect(Set(jtis).count == 50)
    }

    @Test("ath is the base64url SHA-256 of the access token (RFC 9449 §7.1), nonce the server's nonce")
    func accessTokenAndNonce() throws {
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        #expect(DPoP.accessTokenHash(of: token) == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
        let proof = try Self.maker.proof(
            method: "GET", url: URL(string: "https://resource.example.org/protectedresource")!, accessToken: token,
            nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", now: Self.now)
        let parts = try ProofParts(proof)
        #expect(parts.claims["ath"] == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
        #expect(parts.claims["nonce"] == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
    }

    @Test("the signature verifies with the header's key (LimenWire's JWS verifier, jwt-kit)")
    func signature() async throws {
        let proof = try Self.maker.proof(method: "POST", url: Self.tokenEndpoint, now: Self.now)
        let keys = JSONWebKeySet(keys: [Self.maker.publicJWK])
        let payload = try await JWSVerifier.verify(compact: proof, jwks: keys, allowedAlgorithms: [.es256])
        #expect(try JSONValue(parsing: payload).objectValue == (try ProofParts(proof)).claims)
        let otherKeys = JSONWebKeySet(keys: [DPoPProofMaker(privateKey: P256.Signing.PrivateKey()).publicJWK])
        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await JWSVerifier.verify(compact: proof, jwks: otherKeys, allowedAlgorithms: [.es256])
        }
    }

    @Test(
        "a URL that is not absolute http or https with a host cannot be a proof's htu",
        arguments: ["/token", "ftp://server.example.com/token", "file:///etc/passwd", "https:///token"])
    func invalidTargetURL(url: String) throws {
        let url = try #require(URL(string: url))
        #expect(throws: DPoPError.invalidTargetURL) { try Self.maker.proof(method: "POST", url: url) }
    }

    @Test(
        "joserfc verifies a proof the SDK made, with the key in its header, and reads the same claims and thumbprint",
        .enabled(if: JoserfcPeer.unavailableReason == nil, "python3 with joserfc is missing (pip install joserfc)"))
    func joserfcVerifies() async throws {
        let url = "https://resource.example.org/protectedresource?page=2"
        let token = "an-access-token"
        let proof = try Self.maker.proof(
            method: "GET", url: URL(string: url)!, accessToken: token, nonce: "n-0S6_WzA2Mj", now: Self.now)
        let request: JSONValue = [
            "proof": .string(proof), "method": "GET", "url": .string(url), "access_token": .string(token),
        ]
        let output = try await PythonScript.run(
            "Tests/Peers/dpop/proofs.py", arguments: ["verify"], input: Data(request.serialized()))
        let answer = try #require(try JSONValue(parsing: output).objectValue)
        let parts = try ProofParts(proof)
        #expect(answer["header"]?.objectValue == parts.header)
        #expect(answer["claims"]?.objectValue == parts.claims)
        #expect(answer["jkt"] == .string(Self.maker.thumbprint))
        #expect(answer["ath"] == parts.claims["ath"])
        #expect(answer["htu"] == parts.claims["htu"])
        #expect(parts.claims["nonce"] == "n-0S6_WzA2Mj")
    }
}
