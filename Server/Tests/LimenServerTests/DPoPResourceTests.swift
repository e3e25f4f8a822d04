import Crypto
import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("DPoP-bound tokens at the resources Limen serves (RFC 9449 §7)")
struct DPoPResourceTests {
    /// The resources a signed-in app reads with its access token.
    static let resources = ["/userinfo", "/v1/me/identities", "/v1/me/data"]

    @Test("a bound token with the DPoP scheme and a proof for the request is served", arguments: resources)
    func served(_ path: String) async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await client.signIn()["access_token"])
            let response = try await client.get(path, accessToken: accessToken)
            #expect(response.status == .ok)
        }
    }

    @Test(
        "a bound token sent as Bearer is refused with a DPoP invalid_token challenge naming the algorithms",
        arguments: resources)
    func boundTokenAsBearer(_ path: String) async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await client.signIn()["access_token"])
            let proof = try client.proof("GET", path, accessToken: accessToken)
            let refused = try await client.get(path, accessToken: accessToken, scheme: "Bearer", proofs: [proof])
            #expect(refused.status == .unauthorized)
            let challenge = try #require(refused.headers[.wwwAuthenticate])
            #expect(challenge.hasPrefix("DPoP algs=\"ES256 EdDSA RS256\""))
            #expect(challenge.contains("error=\"invalid_token\""))
        }
    }

    @Test(
        "refused with invalid_dpop_proof: no proof, wrong ath, another key, wrong htu, wrong htm, a replayed proof",
        arguments: ["no proof", "wrong ath", "another key", "wrong htu", "wrong htm", "replayed jti"])
    func refusedProofs(_ hostile: String) async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await client.signIn()["access_token"])
            let proofs: [String]
            switch hostile {
            case "no proof": proofs = []
            case "wrong ath": proofs = [try client.proof("GET", "/userinfo", accessToken: accessToken + "x")]
            case "another key":
                proofs = [try DPoPTestClient(fixture: fixture).proof("GET", "/userinfo", accessToken: accessToken)]
            case "wrong htu": proofs = [try client.proof("GET", "/v1/me/data", accessToken: accessToken)]
            case "wrong htm": proofs = [try client.proof("POST", "/userinfo", accessToken: accessToken)]
            default:
                let proof = try client.proof("GET", "/userinfo", accessToken: accessToken)
                #expect(try await client.get("/userinfo", accessToken: accessToken, proofs: [proof]).status == .ok)
                proofs = [proof]
            }
            let refused = try await client.get("/userinfo", accessToken: accessToken, proofs: proofs)
            #expect(refused.status == .unauthorized)
            let challenge = try #require(refused.headers[.wwwAuthenticate])
            #expect(challenge.hasPrefix("DPoP "))
            #expect(challenge.contains("error=\"invalid_dpop_proof\""))
            #expect(refused.json["sub"] == nil)
        }
    }

    @Test("an account change (DELETE /v1/me) answers a bound token as Bearer, or a proof by another key, with DPoP")
    func accountChange() async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await client.signIn()["access_token"])
            let asBearer = try await client.get(
                "/v1/me", method: .delete, accessToken: accessToken, scheme: "Bearer", proofs: [])
            #expect(asBearer.status == .unauthorized)
            #expect(asBearer.headers[.wwwAuthenticate]?.hasPrefix("DPoP ") == true)
            #expect(asBearer.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
            let thief = DPoPTestClient(fixture: fixture)
            let otherKey = try await client.get(
                "/v1/me", method: .delete, accessToken: accessToken,
                proofs: [try thief.proof("DELETE", "/v1/me", accessToken: accessToken)])
            #expect(otherKey.status == .unauthorized)
            #expect(otherKey.headers[.wwwAuthenticate]?.contains("error=\"invalid_dpop_proof\"") == true)
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id) != nil)
        }
    }

    @Test("an unbound token sent with the DPoP scheme is refused (invalid_token); as Bearer it is served")
    func unboundTokenAsDPoP() async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let refused = try await client.get("/userinfo", accessToken: accessToken)
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
            #expect(try await fixture.userInfo(accessToken).status == .ok)
        }
    }
}

@Suite("DPoP nonces (RFC 9449 §8, §9) when the server asks for them")
struct DPoPNonceTests {
    /// Nonces required; access tokens that outlive two nonce windows.
    static func requireNonces(_ configuration: inout ServerConfiguration) {
        configuration.dpopNonceRequired = true
        configuration.tokenLifetimes.accessToken = 3600
    }

    @Test("/token answers use_dpop_nonce with a DPoP-Nonce; the proof with it is served and gets a fresh one")
    func tokenEndpoint() async throws {
        try await TokenFixture.run(configure: Self.requireNonces) { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let code = try await fixture.issueCode()
            let asked = try await client.redeem(code, proofs: [try client.proof()])
            #expect(asked.status == .badRequest)
            #expect(asked.error == "use_dpop_nonce")
            let nonce = try #require(asked.headers[DPoPTestClient.nonceField])
            let madeUp = try await client.redeem(code, proofs: [try client.proof(nonce: "made-up")])
            #expect(madeUp.error == "use_dpop_nonce")
            let served = try await client.redeem(code, proofs: [try client.proof(nonce: nonce)])
            #expect(served.status == .ok)
            #expect(served["token_type"] == "DPoP")
            #expect(served.headers[DPoPTestClient.nonceField] != nil)
        }
    }

    @Test("a resource answers 401 use_dpop_nonce with a DPoP-Nonce; a nonce stays good into the next window only")
    func resource() async throws {
        try await TokenFixture.run(configure: Self.requireNonces) { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let code = try await fixture.issueCode()
            let nonce = try #require(
                try await client.redeem(code, proofs: [try client.proof()]).headers[DPoPTestClient.nonceField])
            let accessToken = try #require(
                try await client.redeem(code, proofs: [try client.proof(nonce: nonce)])["access_token"])
            let asked = try await client.get("/userinfo", accessToken: accessToken)
            #expect(asked.status == .unauthorized)
            #expect(asked.headers[.wwwAuthenticate]?.contains("error=\"use_dpop_nonce\"") == true)
            #expect(asked.headers[DPoPTestClient.nonceField] == nonce)
            let withNonce = { () throws -> [String] in
                [try client.proof("GET", "/userinfo", accessToken: accessToken, nonce: nonce)]
            }
            #expect(try await client.get("/userinfo", accessToken: accessToken, proofs: withNonce()).status == .ok)
            fixture.clock.advance(by: DPoPNonces.defaultWindow)
            #expect(try await client.get("/userinfo", accessToken: accessToken, proofs: withNonce()).status == .ok)
            fixture.clock.advance(by: DPoPNonces.defaultWindow)
            let stale = try await client.get("/userinfo", accessToken: accessToken, proofs: withNonce())
            #expect(stale.headers[.wwwAuthenticate]?.contains("error=\"use_dpop_nonce\"") == true)
        }
    }
}

@Suite("DPoP nonces are stateless: any node with the master key accepts them")
struct DPoPNonceUnitTests {
    @Test("nonce makers with the same key agree, another key's nonce is refused, and each lives one to two windows")
    func stateless() {
        let key = SymmetricKey(data: Data(repeating: 1, count: 32))
        let start = Date(timeIntervalSince1970: 1_700_000_100)
        let nodeA = DPoPNonces(key: key, window: 300)
        let nodeB = DPoPNonces(key: key, window: 300)
        let nonce = nodeA.current(at: start)
        #expect(nodeB.accepts(nonce, at: start))
        #expect(nodeB.accepts(nonce, at: start.addingTimeInterval(300)))
        #expect(!nodeB.accepts(nonce, at: start.addingTimeInterval(600)))
        let otherKey = SymmetricKey(data: Data(repeating: 2, count: 32))
        #expect(!DPoPNonces(key: otherKey, window: 300).accepts(nonce, at: start))
        #expect(nodeA.current(at: start.addingTimeInterval(300)) != nonce)
    }
}
