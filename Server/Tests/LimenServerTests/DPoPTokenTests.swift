import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /token with DPoP proofs (RFC 9449 §5)")
struct DPoPTokenTests {
    @Test("a code redeemed with a proof gives a DPoP token bound to the proof's key; without one, a bearer token")
    func boundAccessToken() async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let bound = try await client.signIn()
            #expect(bound.status == .ok)
            #expect(bound["token_type"] == "DPoP")
            #expect(try DPoPTestClient.boundKey(of: bound["access_token"]) == client.thumbprint)
            let bearer = try await fixture.signIn()
            #expect(bearer["token_type"] == "Bearer")
            #expect(try DPoPTestClient.boundKey(of: bearer["access_token"]) == nil)
        }
    }

    @Test(
        "a proof for another URL, another method, sent twice, or two proofs at once: 400 invalid_dpop_proof, no token",
        arguments: ["wrong htu", "wrong htm", "replayed jti", "two proofs", "not a JWS"])
    func refusedProofs(_ hostile: String) async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let proofs: [String]
            switch hostile {
            case "wrong htu": proofs = [try client.proof("POST", "/userinfo")]
            case "wrong htm": proofs = [try client.proof("GET", "/token")]
            case "replayed jti":
                let proof = try client.proof()
                #expect(try await client.redeem(try await fixture.issueCode(), proofs: [proof]).status == .ok)
                proofs = [proof]
            case "two proofs": proofs = [try client.proof(), try client.proof()]
            default: proofs = ["not-a-proof"]
            }
            let refused = try await client.redeem(try await fixture.issueCode(), proofs: proofs)
            #expect(refused.status == .badRequest)
            #expect(refused.error == "invalid_dpop_proof")
            #expect(refused["access_token"] == nil)
        }
    }

    @Test(
        "a public client's refresh token is bound to its key: the same key refreshes, another key or none is refused",
        arguments: TokenBackend.allCases)
    func publicRefreshBound(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let thief = DPoPTestClient(fixture: fixture)
            let refreshToken = try #require(try await client.signIn()["refresh_token"])

            let otherKey = try await thief.refresh(refreshToken, proofs: [try thief.proof()])
            #expect(otherKey.status == .badRequest)
            #expect(otherKey.error == "invalid_grant")
            #expect(try await fixture.refresh(refreshToken).error == "invalid_grant")

            let refreshed = try await client.refresh(refreshToken, proofs: [try client.proof()])
            #expect(refreshed.status == .ok)
            #expect(refreshed["token_type"] == "DPoP")
            #expect(try DPoPTestClient.boundKey(of: refreshed["access_token"]) == client.thumbprint)
            let next = try #require(refreshed["refresh_token"])
            #expect(try await thief.refresh(next, proofs: [try thief.proof()]).error == "invalid_grant")
            #expect(try await client.refresh(next, proofs: [try client.proof()]).status == .ok)
        }
    }

    @Test("a confidential client's refresh token is not bound (RFC 9449 §5); a proof at refresh binds the new token")
    func confidentialRefreshUnbound() async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let code = try await fixture.issueCode(clientID: "web", redirectURI: TokenFixture.webRedirect)
            let credentials = TokenFixture.basic("web", TokenFixture.webSecret)
            var headers = DPoPTestClient.headers(proofs: [try client.proof()])
            headers[.authorization] = credentials[.authorization]
            let tokens = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                    ("code_verifier", PKCE.fixture.verifier),
                ], headers: headers)
            #expect(tokens["token_type"] == "DPoP")
            let refreshToken = try #require(tokens["refresh_token"])
            let unbound = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)], headers: credentials)
            #expect(unbound.status == .ok)
            #expect(unbound["token_type"] == "Bearer")
            let other = DPoPTestClient(fixture: fixture)
            var otherHeaders = DPoPTestClient.headers(proofs: [try other.proof()])
            otherHeaders[.authorization] = credentials[.authorization]
            let rebound = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", try #require(unbound["refresh_token"]))],
                headers: otherHeaders)
            #expect(rebound["token_type"] == "DPoP")
            #expect(try DPoPTestClient.boundKey(of: rebound["access_token"]) == other.thumbprint)
        }
    }

    @Test("a client registered with dpop_bound_access_tokens is refused without a proof, and served with one")
    func requiredByClient() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "strict", name: "Strict", kind: .public, isNative: true,
                    redirectURIs: [TokenFixture.nativeRedirect], createdAt: fixture.clock.now, requiresDPoP: true))
            let refused = try await fixture.redeem(try await fixture.issueCode(clientID: "strict"), clientID: "strict")
            #expect(refused.status == .badRequest)
            #expect(refused.error == "invalid_dpop_proof")
            let client = DPoPTestClient(fixture: fixture)
            let served = try await client.signIn(clientID: "strict")
            #expect(served.status == .ok)
            #expect(served["token_type"] == "DPoP")
        }
    }

    @Test("introspection describes a bound access token as token_type DPoP with its cnf.jkt (RFC 9449 §6.2)")
    func introspection() async throws {
        try await TokenFixture.run { fixture in
            let client = DPoPTestClient(fixture: fixture)
            let accessToken = try #require(try await client.signIn()["access_token"])
            let described = try await fixture.post(
                "/introspect", [("token", accessToken)], headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(described.json["active"] == .bool(true))
            #expect(described["token_type"] == "DPoP")
            #expect(described.json["cnf"] == .object(["jkt": .string(client.thumbprint)]))
            let bearer = try #require(try await fixture.signIn()["access_token"])
            let plain = try await fixture.post(
                "/introspect", [("token", bearer)], headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(plain["token_type"] == "Bearer")
        }
    }

    @Test("discovery names the algorithms proofs may be signed with")
    func discovery() async throws {
        try await TokenFixture.run { fixture in
            let metadata = try await fixture.get("/.well-known/openid-configuration")
            #expect(
                metadata.json["dpop_signing_alg_values_supported"]
                    == .array([.string("ES256"), .string("EdDSA"), .string("RS256")]))
        }
    }
}
