import Crypto
import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Tokens across key rotation, client removal and malformed input")
struct TokenHardeningTests {
    @Test("an access token signed before a key rotation stays valid; tokens after the switchover use the new key")
    func keyRotation() async throws {
        try await TokenFixture.run { fixture in
            let before = try #require(try await fixture.signIn()["access_token"])
            let oldKid = try UnverifiedJWT(before).keyID
            _ = try await KeyRing.rotate(
                store: fixture.provider.store, masterKey: fixture.provider.masterKey, now: fixture.clock.now,
                publishAhead: 60)
            try await fixture.provider.reloadKeys()
            fixture.clock.advance(by: 120)

            #expect(try await fixture.userInfo(before).status == .ok)
            let after = try await fixture.signIn()
            let accessToken = try #require(after["access_token"])
            #expect(try UnverifiedJWT(accessToken).keyID != oldKid)
            #expect(try await fixture.userInfo(accessToken).status == .ok)
            _ = try await fixture.idTokenValidator(clientID: "native")
                .validate(try #require(after["id_token"]), accessToken: accessToken)
        }
    }

    @Test("removing a client ends its grants: its access tokens and refresh tokens stop working")
    func clientRemoval() async throws {
        try await TokenFixture.run { fixture in
            let tokens = try await fixture.signIn()
            #expect(try await fixture.provider.removeClient(id: "native"))
            #expect(try await fixture.userInfo(try #require(tokens["access_token"])).status == .unauthorized)
            let refresh = try await fixture.refresh(try #require(tokens["refresh_token"]))
            #expect(refresh.status == .unauthorized)
            #expect(refresh.error == "invalid_client")
        }
    }

    @Test(
        "a malformed form body is invalid_request, never a crash",
        arguments: ["&&&===", "%ZZ=%", "grant_type", "=authorization_code", String(repeating: "&", count: 60_000)]
    )
    func malformedBody(_ body: String) async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post("/token", [], body: body + "&client_id=native")
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
        }
    }

    @Test("a code is refused once the sweeper has removed it, and so is its replay")
    func sweptCode() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode()
            fixture.clock.advance(by: 61)
            await ExpirySweeper(store: fixture.provider.store, now: { fixture.clock.now }).sweepOnce()
            #expect(try await fixture.redeem(code).error == "invalid_grant")
        }
    }

    @Test(
        "concurrent redemptions of one code: at most one answer carries tokens, and the replays revoke them",
        arguments: TokenBackend.allCases)
    func concurrentCodeRedemption(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let code = try await fixture.issueCode()
            let responses = try await withThrowingTaskGroup(of: RecordedResponse.self) { group in
                for _ in 0..<6 { group.addTask { try await fixture.redeem(code) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = responses.filter { $0.status == .ok }
            #expect(winners.count <= 1)
            #expect(responses.filter { $0.error == "invalid_grant" }.count >= 5)
            for winner in winners {
                #expect(try await fixture.userInfo(try #require(winner["access_token"])).status == .unauthorized)
                #expect(try await fixture.refresh(try #require(winner["refresh_token"])).error == "invalid_grant")
            }
        }
    }

    @Test("a PKCE verifier of 128 characters is accepted and one of 129 refused (RFC 7636 §4.1)")
    func verifierLengthBounds() async throws {
        try await TokenFixture.run { fixture in
            for (length, accepted) in [(128, true), (129, false)] {
                let verifier = String(repeating: "a", count: length)
                let challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
                let response = try await fixture.redeem(
                    try await fixture.issueCode(challenge: challenge), verifier: verifier)
                #expect((response.status == .ok) == accepted, "\(length) characters")
            }
        }
    }

    @Test("token lifetimes and the reuse grace window come from the server configuration")
    func configuredLifetimes() async throws {
        let lifetimes = TokenLifetimes(accessToken: 60, idToken: 30, refreshToken: 3600, refreshReuseGrace: 30)
        let configure: (inout ServerConfiguration) -> Void = { $0.tokenLifetimes = lifetimes }
        try await TokenFixture.run(configure: configure) { fixture in
            let tokens = try await fixture.signIn()
            #expect(tokens.json["expires_in"] == .number(60))
            let now = fixture.clock.now.timeIntervalSince1970
            #expect(try UnverifiedJWT(try #require(tokens["access_token"]))[claim: "exp"] == .number(now + 60))
            #expect(try UnverifiedJWT(try #require(tokens["id_token"]))[claim: "exp"] == .number(now + 30))
            let refreshToken = try #require(tokens["refresh_token"])
            let stored = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(refreshToken))
            #expect(stored?.expiresAt == fixture.clock.now.addingTimeInterval(3600))

            let first = try await fixture.refresh(refreshToken)
            fixture.clock.advance(by: 25)  // beyond the default 10 s, within the configured 30 s
            #expect(try await fixture.refresh(refreshToken).body == first.body)
        }
    }
}
