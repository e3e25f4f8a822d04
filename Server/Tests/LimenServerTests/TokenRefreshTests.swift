import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /token: refresh token rotation")
struct TokenRefreshTests {
    @Test(
        "a refresh returns new tokens and a new refresh token; the new one refreshes again",
        arguments: TokenBackend.allCases)
    func rotation(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            fixture.clock.advance(by: 60)
            let refreshed = try await fixture.refresh(first)
            #expect(refreshed.status == .ok)
            #expect(refreshed.headers[.cacheControl] == "no-store")
            let second = try #require(refreshed["refresh_token"])
            #expect(second != first)
            #expect(refreshed["scope"] == "openid email profile offline_access")
            #expect(try await fixture.userInfo(try #require(refreshed["access_token"])).status == .ok)
            let rotated = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(first))
            #expect(rotated?.rotatedAt == fixture.clock.now)
            fixture.clock.advance(by: 60)
            #expect(try await fixture.refresh(second).status == .ok)
        }
    }

    @Test("the ID token from a refresh keeps sub and auth_time, and carries no nonce (OIDC Core §12.2)")
    func refreshedIDToken() async throws {
        try await TokenFixture.run { fixture in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let authTime = fixture.clock.now.timeIntervalSince1970 - 30
            fixture.clock.advance(by: 120)
            let refreshed = try await fixture.refresh(refreshToken)
            let idToken = try #require(refreshed["id_token"])
            let claims = try await fixture.idTokenValidator(clientID: "native")
                .validate(idToken, accessToken: refreshed["access_token"])
            #expect(claims.subject == "user-1")
            #expect(try UnverifiedJWT(idToken)[claim: "auth_time"] == .number(authTime))
            #expect(try UnverifiedJWT(idToken)[claim: "nonce"] == nil)
        }
    }

    @Test(
        "a rotated token presented after its successor was used revokes the whole grant (the chain forked)",
        arguments: TokenBackend.allCases)
    func useAfterSuccessorUsedRevokesGrant(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            let second = try #require(try await fixture.refresh(first)["refresh_token"])
            fixture.clock.advance(by: 60)
            let third = try await fixture.refresh(second)
            let accessToken = try #require(third["access_token"])
            fixture.clock.advance(by: 11)

            let stolen = try await fixture.refresh(first)
            #expect(stolen.status == .badRequest)
            #expect(stolen.error == "invalid_grant")
            #expect(try await fixture.refresh(try #require(third["refresh_token"])).error == "invalid_grant")
            #expect(try await fixture.userInfo(accessToken).status == .unauthorized)
        }
    }

    @Test(
        "a retry long after the grace window whose successor was never presented gets a fresh rotation; the session stays",
        arguments: TokenBackend.allCases)
    func lateRetryWithUnusedSuccessorIsAnswered(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            let lost = try await fixture.refresh(first)  // rotated, but the answer never arrived
            fixture.clock.advance(by: 3 * 3600)

            let retry = try await fixture.refresh(first)
            #expect(retry.status == .ok)
            let successor = try #require(retry["refresh_token"])
            #expect(successor != lost["refresh_token"])
            #expect(try await fixture.userInfo(try #require(retry["access_token"])).status == .ok)
            fixture.clock.advance(by: 60)
            let next = try await fixture.refresh(successor)
            #expect(next.status == .ok)
            #expect(try await fixture.userInfo(try #require(next["access_token"])).status == .ok)
        }
    }

    @Test(
        "two holders of one token: the successor a retry retired revokes the grant when its holder presents it",
        arguments: TokenBackend.allCases)
    func retiredSuccessorRevokesGrant(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let stolen = try #require(try await fixture.signIn()["refresh_token"])
            let thiefs = try #require(try await fixture.refresh(stolen)["refresh_token"])
            fixture.clock.advance(by: 60)
            let owners = try await fixture.refresh(stolen)  // the owner, who never saw the thief's successor
            #expect(owners.status == .ok)

            let found = try await fixture.refresh(thiefs)
            #expect(found.error == "invalid_grant")
            #expect(try await fixture.refresh(try #require(owners["refresh_token"])).error == "invalid_grant")
            #expect(try await fixture.userInfo(try #require(owners["access_token"])).status == .unauthorized)
        }
    }

    @Test(
        "a retry within the grace window gets the very same response, and the grant stays",
        arguments: TokenBackend.allCases)
    func retryWithinGraceIsIdempotent(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            let original = try await fixture.refresh(first)
            fixture.clock.advance(by: 10)
            let retry = try await fixture.refresh(first)
            #expect(retry.status == .ok)
            #expect(retry.json == original.json)
            #expect(retry.body == original.body)
            #expect(try await fixture.refresh(try #require(retry["refresh_token"])).status == .ok)
        }
    }

    @Test(
        "concurrent refreshes with one token all get the same tokens; exactly one successor is stored",
        arguments: TokenBackend.allCases)
    func concurrentRefreshes(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            let bodies = try await withThrowingTaskGroup(of: RecordedResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await fixture.refresh(first) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.allSatisfy { $0.status == .ok })
            #expect(Set(bodies.map(\.body)).count == 1)
            let successor = try #require(bodies.first?["refresh_token"])
            #expect(try await fixture.refresh(successor).status == .ok)
        }
    }

    @Test("the sealed successor opens only with the refresh token it replaced")
    func sealedSuccessorNeedsTheOldToken() throws {
        let body = JSONValue.object(["access_token": .string("a"), "refresh_token": .string("r")])
        let sealed = try RefreshSuccessorSeal.seal(body, under: "old-token")
        #expect(RefreshSuccessorSeal.open(sealed, with: "old-token") == body)
        #expect(RefreshSuccessorSeal.open(sealed, with: "other-token") == nil)
        #expect(!sealed.containsBytes(Data("refresh_token".utf8)))
    }

    @Test(
        "scope may narrow (the access token and userinfo follow) but never widen (invalid_scope)",
        arguments: TokenBackend.allCases)
    func scopeNarrowing(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let refreshToken = try #require(
                try await fixture.signIn(scope: "openid email offline_access")["refresh_token"])
            let widened = try await fixture.refresh(refreshToken, scope: "openid email profile")
            #expect(widened.status == .badRequest)
            #expect(widened.error == "invalid_scope")

            let narrowed = try await fixture.refresh(refreshToken, scope: "openid")
            #expect(narrowed.status == .ok)
            #expect(narrowed["scope"] == "openid")
            let accessToken = try #require(narrowed["access_token"])
            #expect(try UnverifiedJWT(accessToken)[claim: "scope"] == .string("openid"))
            let userInfo = try await fixture.userInfo(accessToken)
            #expect(userInfo.json == ["sub": .string("user-1"), "auth_level": .string("verified")])

            // The refresh token keeps the whole grant: the next refresh may ask for email again.
            let next = try await fixture.refresh(try #require(narrowed["refresh_token"]))
            #expect(next["scope"] == "openid email offline_access")
        }
    }

    @Test("a refresh token of another client, an unknown one or an expired one is invalid_grant")
    func refusals() async throws {
        try await TokenFixture.run { fixture in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let otherClient = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(otherClient.error == "invalid_grant")
            #expect(try await fixture.refresh(RandomToken.make()).error == "invalid_grant")
            #expect(try await fixture.refresh(refreshToken, clientID: "native").status == .ok)

            let later = try #require(try await fixture.signIn()["refresh_token"])
            fixture.clock.advance(by: 30 * 24 * 3600)
            #expect(try await fixture.refresh(later).error == "invalid_grant")
        }
    }

    @Test("a missing refresh_token is invalid_request")
    func missingRefreshToken() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post("/token", [("grant_type", "refresh_token"), ("client_id", "native")])
            #expect(response.error == "invalid_request")
        }
    }
}
