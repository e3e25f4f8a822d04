import Crypto
import Foundation
import LimenServerWire
import LimenWire
import Testing

@Suite("DPoP proof verification (RFC 9449 §4.3): proofs accepted, and every refusal")
struct DPoPVerifierTests {
    let verifier = DPoPVerifier()

    /// Verifies `proof` for the builder's request (POST to the token endpoint at its now), with `changes`.
    func verify(
        _ proof: String, method: String = ProofBuilder.method, url: String = ProofBuilder.url,
        accessToken: String? = nil, nonce: String? = nil, now: Date = ProofBuilder.now,
        verifier: DPoPVerifier? = nil
    ) async throws(DPoPProofError) -> VerifiedDPoPProof {
        try await (verifier ?? self.verifier).verify(
            proof, method: method, url: url, accessToken: accessToken, nonce: nonce, now: now)
    }

    /// Expects `proof` to be refused with `error`.
    func expectRefusal(
        _ error: DPoPProofError, _ proof: String, method: String = ProofBuilder.method, url: String = ProofBuilder.url,
        accessToken: String? = nil, nonce: String? = nil, verifier: DPoPVerifier? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await #expect(throws: error, sourceLocation: sourceLocation) {
            try await self.verify(
                proof, method: method, url: url, accessToken: accessToken, nonce: nonce, verifier: verifier)
        }
    }

    // MARK: Accepted

    @Test("a proof the SDK's maker made verifies: its key's thumbprint, jti and iat come back")
    func makerProof() async throws {
        let maker = DPoPProofMaker(privateKey: P256.Signing.PrivateKey())
        let url = "https://resource.example.org/protectedresource"
        let proof = try maker.proof(
            method: "GET", url: URL(string: url + "?page=2#top")!, accessToken: "token-1", nonce: "nonce-1",
            now: ProofBuilder.now)
        let verified = try await verify(
            proof, method: "GET", url: url, accessToken: "token-1", nonce: "nonce-1",
            now: ProofBuilder.now.addingTimeInterval(2))
        #expect(verified.thumbprint == maker.thumbprint)
        #expect(verified.issuedAt == ProofBuilder.now)
        #expect(verified.algorithm == .es256)
        #expect(verified.publicKey == maker.publicJWK)
        #expect(try UnverifiedJWT(proof).jwtID == verified.jti)
    }

    @Test("an ES256 and an EdDSA proof made by hand verify, with their keys' thumbprints")
    func handMade() async throws {
        let es256 = try await verify(try ProofBuilder.es256().signed())
        #expect(es256.thumbprint == JSONWebKey(parameters: ProofBuilder.jwk(of: ProofBuilder.es256Key)).thumbprint)
        #expect(es256.jti == "e1j3V_bKic8-LAEB")
        let edDSA = try await verify(try ProofBuilder.edDSA().signed(by: ProofBuilder.ed25519Key))
        #expect(edDSA.algorithm == .edDSA)
        #expect(edDSA.thumbprint == ProofBuilder.edDSA().header["jwk"]?.objectValue.map(JSONWebKey.init)?.thumbprint)
    }

    @Test("a proof with ath is accepted at the token endpoint, where no access token is checked")
    func athWithoutAccessToken() async throws {
        _ = try await verify(try ProofBuilder.es256().claims(["ath": .string("whatever")]).signed())
    }

    @Test("htu and the request's URL match ignoring query and fragment and after RFC 3986 normalisation")
    func normalisedTarget() async throws {
        let proof = try ProofBuilder.es256().claims(["htu": .string("https://server.example.com/token?a=b")]).signed()
        _ = try await verify(proof, url: "HTTPS://Server.Example.COM:443/token?x=1#f")
    }

    // MARK: Refused before the signature

    @Test("a proof that is not a compact JWS with JSON header and claims is malformed")
    func malformed() async throws {
        let proof = try ProofBuilder.es256().signed()
        let parts = proof.split(separator: ".").map(String.init)
        await expectRefusal(.malformed, "not a jws")
        await expectRefusal(.malformed, parts[0] + "." + parts[1])
        await expectRefusal(.malformed, proof + ".extra")
        await expectRefusal(.malformed, parts[0] + "." + Base64URL.encode(Array("[1]".utf8)) + "." + parts[2])
        await expectRefusal(.malformed, "*" + proof)
    }

    @Test("a typ other than dpop+jwt, or none, is refused", arguments: ["JWT", "at+jwt", "DPoP+JWT", nil] as [String?])
    func wrongType(typ: String?) async throws {
        await expectRefusal(.wrongType, try ProofBuilder.es256().header(["typ": typ.map(JSONValue.string)]).signed())
    }

    @Test("alg none, HS256, an absent alg, and an algorithm outside the allow-list are refused")
    func algorithmNotAllowed() async throws {
        let builder = ProofBuilder.es256()
        await expectRefusal(.algorithmNotAllowed("none"), builder.header(["alg": .string("none")]).unsigned())
        await expectRefusal(
            .algorithmNotAllowed("HS256"), builder.header(["alg": .string("HS256")]).unsigned(signature: [1, 2, 3]))
        await expectRefusal(.algorithmNotAllowed("(absent)"), builder.header(["alg": nil]).unsigned(signature: [1]))
        await expectRefusal(.algorithmNotAllowed("ES384"), builder.header(["alg": .string("ES384")]).unsigned())
        let edDSAOnly = DPoPVerifier(allowedAlgorithms: [.edDSA])
        await expectRefusal(.algorithmNotAllowed("ES256"), try builder.signed(), verifier: edDSAOnly)
        let unsupported = DPoPVerifier(allowedAlgorithms: [.es256, .ps256])
        #expect(unsupported.allowedAlgorithms == [.es256])
    }

    @Test("a header without a jwk object is refused")
    func keyMissing() async throws {
        await expectRefusal(.keyMissing, try ProofBuilder.es256().header(["jwk": nil]).signed())
        await expectRefusal(.keyMissing, try ProofBuilder.es256().header(["jwk": .string("key")]).signed())
    }

    @Test("a jwk holding a private member is refused", arguments: ["d", "p", "q", "dp", "dq", "qi", "oth", "k"])
    func privateMembers(member: String) async throws {
        var jwk = ProofBuilder.jwk(of: ProofBuilder.es256Key)
        jwk[member] = .string(Base64URL.encode(ProofBuilder.es256Key.rawRepresentation))
        await expectRefusal(.keyHasPrivateMembers, try ProofBuilder.es256().header(["jwk": .object(jwk)]).signed())
    }

    @Test("a jwk of another type or curve than the alg, or missing a coordinate, is refused")
    func keyUnusable() async throws {
        let es256 = ProofBuilder.es256()
        let okp = ProofBuilder.edDSA().header["jwk"]
        await expectRefusal(.keyUnusable, try es256.header(["jwk": okp]).signed())
        var p384 = ProofBuilder.jwk(of: ProofBuilder.es256Key)
        p384["crv"] = .string("P-384")
        await expectRefusal(.keyUnusable, try es256.header(["jwk": .object(p384)]).signed())
        var noY = ProofBuilder.jwk(of: ProofBuilder.es256Key)
        noY["y"] = nil
        await expectRefusal(.keyUnusable, try es256.header(["jwk": .object(noY)]).signed())
        var offCurve = ProofBuilder.jwk(of: ProofBuilder.es256Key)
        offCurve["y"] = offCurve["x"]
        await expectRefusal(.keyUnusable, try es256.header(["jwk": .object(offCurve)]).signed())
    }

    @Test("an RS256 jwk whose modulus is outside 2,048–4,096 bits is refused before its signature is checked")
    func rsaKeySize() async throws {
        // Moduli of 1,024, 2,048 and 4,160 bits (odd, so that a library would load them), and a signature of none.
        func proof(modulusBytes: Int) -> String {
            let modulus = [UInt8](repeating: 0xC5, count: modulusBytes)
            let jwk: [String: JSONValue] = [
                "kty": .string("RSA"), "n": .string(Base64URL.encode(modulus)), "e": .string("AQAB"),
            ]
            return ProofBuilder.es256().header(["alg": .string("RS256"), "jwk": .object(jwk)])
                .unsigned(signature: [UInt8](repeating: 1, count: modulusBytes))
        }
        await expectRefusal(.keyUnusable, proof(modulusBytes: 128))
        await expectRefusal(.keyUnusable, proof(modulusBytes: 520))
        // A size in range reaches the signature check.
        await expectRefusal(.signatureInvalid, proof(modulusBytes: 256))
    }

    @Test("a signature by another key than the jwk's, or over changed claims, is refused")
    func signatureInvalid() async throws {
        await expectRefusal(.signatureInvalid, try ProofBuilder.es256().signed(by: P256.Signing.PrivateKey()))
        let proof = try ProofBuilder.es256().signed().split(separator: ".").map(String.init)
        let changed = Base64URL.encode(
            JSONValue.object(ProofBuilder.es256().claims(["htm": .string("GET")]).claims).serialized())
        await expectRefusal(.signatureInvalid, [proof[0], changed, proof[2]].joined(separator: "."))
        await expectRefusal(
            .signatureInvalid, try ProofBuilder.edDSA().signed(by: Curve25519.Signing.PrivateKey()))
    }

    // MARK: Refused claims

    @Test("an absent or mistyped htm, htu or iat is refused")
    func invalidClaims() async throws {
        let builder = ProofBuilder.es256()
        for name in ["htm", "htu", "iat"] {
            await expectRefusal(.invalidClaim(name), try builder.claims([name: nil]).signed())
            await expectRefusal(.invalidClaim(name), try builder.claims([name: .bool(true)]).signed())
        }
        await expectRefusal(.invalidClaim("iat"), try builder.claims(["iat": .string("1700000000")]).signed())
    }

    @Test("an absent, empty or non-string jti is refused, and one longer than the limit")
    func jti() async throws {
        let builder = ProofBuilder.es256()
        await expectRefusal(.jtiMissing, try builder.claims(["jti": nil]).signed())
        await expectRefusal(.jtiMissing, try builder.claims(["jti": .string("")]).signed())
        await expectRefusal(.jtiMissing, try builder.claims(["jti": .number(12)]).signed())
        await expectRefusal(
            .jtiTooLong, try builder.claims(["jti": .string(String(repeating: "j", count: 129))]).signed())
        _ = try await verify(try builder.claims(["jti": .string(String(repeating: "j", count: 128))]).signed())
        let short = DPoPVerifier(maximumJTILength: 16)
        await expectRefusal(
            .jtiTooLong, try builder.claims(["jti": .string("seventeen-chars!!")]).signed(), verifier: short)
    }

    @Test("an htm other than the request's method is refused; methods are case-sensitive")
    func methodMismatch() async throws {
        await expectRefusal(.methodMismatch, try ProofBuilder.es256().signed(), method: "GET")
        await expectRefusal(.methodMismatch, try ProofBuilder.es256().claims(["htm": .string("post")]).signed())
    }

    @Test(
        "an htu for another URI is refused",
        arguments: [
            "https://server.example.com/authorize", "https://attacker.example.com/token",
            "http://server.example.com/token", "https://server.example.com:8443/token",
            "https://server.example.com/token/", "https://server.example.com/TOKEN", "/token",
            "https://user@server.example.com/token", "not a uri",
        ])
    func targetURIMismatch(htu: String) async throws {
        await expectRefusal(.targetURIMismatch, try ProofBuilder.es256().claims(["htu": .string(htu)]).signed())
    }

    @Test("without the server's nonce, or with another, the proof is refused and the answer is use_dpop_nonce")
    func nonce() async throws {
        let builder = ProofBuilder.es256()
        await expectRefusal(.nonceMissing, try builder.signed(), nonce: "server-nonce")
        await expectRefusal(
            .nonceMismatch, try builder.claims(["nonce": .string("old-nonce")]).signed(), nonce: "server-nonce")
        await expectRefusal(.nonceMismatch, try builder.claims(["nonce": .number(1)]).signed(), nonce: "server-nonce")
        _ = try await verify(try builder.claims(["nonce": .string("server-nonce")]).signed(), nonce: "server-nonce")
        #expect(DPoPProofError.nonceMissing.oauthError == "use_dpop_nonce")
        #expect(DPoPProofError.nonceMismatch.requiresNonce)
        #expect(DPoPProofError.signatureInvalid.oauthError == "invalid_dpop_proof")
        #expect(!DPoPProofError.issuedAtOutsideWindow.requiresNonce)
    }

    @Test("iat more than 60 s ago or 10 s ahead is refused; the window's edges are accepted")
    func issuedAtWindow() async throws {
        let now = ProofBuilder.now.timeIntervalSince1970
        let builder = ProofBuilder.es256()
        for offset in [-61.0, 11, -300, -100_000, 100_000] {
            await expectRefusal(.issuedAtOutsideWindow, try builder.claims(["iat": .number(now + offset)]).signed())
        }
        for offset in [-60.0, 10, 0] {
            _ = try await verify(try builder.claims(["iat": .number(now + offset)]).signed())
        }
        let narrow = DPoPVerifier(window: .init(future: 5, past: 10))
        await expectRefusal(
            .issuedAtOutsideWindow, try builder.claims(["iat": .number(now - 11)]).signed(), verifier: narrow)
        await expectRefusal(
            .issuedAtOutsideWindow, try builder.claims(["iat": .number(now + 6)]).signed(), verifier: narrow)
        _ = try await verify(try builder.claims(["iat": .number(now - 10)]).signed(), verifier: narrow)
    }

    @Test("at a resource, a proof without ath, or with the hash of another token, is refused")
    func accessTokenHash() async throws {
        let builder = ProofBuilder.es256()
        await expectRefusal(.athMissing, try builder.signed(), accessToken: "token-1")
        let other = builder.claims(["ath": .string(DPoP.accessTokenHash(of: "token-2"))])
        await expectRefusal(.athMismatch, try other.signed(), accessToken: "token-1")
        let right = builder.claims(["ath": .string(DPoP.accessTokenHash(of: "token-1"))])
        _ = try await verify(try right.signed(), accessToken: "token-1")
    }

    @Test("every refusal has a stable code and a message")
    func codes() {
        let errors: [DPoPProofError] = [
            .malformed, .wrongType, .algorithmNotAllowed("none"), .keyMissing, .keyHasPrivateMembers, .keyUnusable,
            .signatureInvalid, .invalidClaim("htm"), .jtiMissing, .jtiTooLong, .methodMismatch, .targetURIMismatch,
            .nonceMissing, .nonceMismatch, .issuedAtOutsideWindow, .athMissing, .athMismatch,
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        #expect(errors.allSatisfy { $0.code.hasPrefix("dpop.") && $0.errorDescription != nil })
    }
}
