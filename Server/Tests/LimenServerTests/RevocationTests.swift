import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /revoke and POST /introspect")
struct RevocationTests {
    private func revoke(_ fixture: TokenFixture, _ token: String, clientID: String = "native") async throws
        -> RecordedResponse
    {
        try await fixture.post("/revoke", [("token", token), ("client_id", clientID)])
    }

    private func introspect(_ fixture: TokenFixture, _ token: String, as client: String = "web") async throws
        -> RecordedResponse
    {
        let secret = client == "web" ? TokenFixture.webSecret : TokenFixture.backendSecret
        return try await fixture.post("/introspect", [("token", token)], headers: TokenFixture.basic(client, secret))
    }

    @Test(
        "revoking a refresh token revokes its grant: the refresh token and the access tokens stop working",
        arguments: TokenBackend.allCases)
    func revokeRefreshToken(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let tokens = try await fixture.signIn()
            let refreshToken = try #require(tokens["refresh_token"])
            let accessToken = try #require(tokens["access_token"])
            let response = try await revoke(fixture, refreshToken)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(try await fixture.refresh(refreshToken).error == "invalid_grant")
            #expect(try await fixture.userInfo(accessToken).status == .unauthorized)
        }
    }

    @Test(
        "revoking an access token stops that token only; the grant and its refresh token live on",
        arguments: TokenBackend.allCases)
    func revokeAccessToken(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let tokens = try await fixture.signIn()
            let accessToken = try #require(tokens["access_token"])
            #expect(try await revoke(fixture, accessToken).status == .ok)
            #expect(try await fixture.userInfo(accessToken).status == .unauthorized)
            let refreshed = try await fixture.refresh(try #require(tokens["refresh_token"]))
            #expect(try await fixture.userInfo(try #require(refreshed["access_token"])).status == .ok)
        }
    }

    @Test("an unknown token is answered with 200 (RFC 7009 §2.2)")
    func unknownToken() async throws {
        try await TokenFixture.run { fixture in
            let unknown = try await revoke(fixture, RandomToken.make())
            #expect(unknown.status == .ok)
            let garbage = try await revoke(fixture, "not.a.jwt")
            #expect(garbage.status == .ok)
        }
    }

    @Test("a token of another client is refused with unauthorized_client and stays valid (RFC 7009 §2.1)")
    func otherClientsToken() async throws {
        try await TokenFixture.run { fixture in
            let tokens = try await fixture.signIn()
            for token in [tokens["refresh_token"], tokens["access_token"]] {
                let response = try await fixture.post(
                    "/revoke", [("token", try #require(token))],
                    headers: TokenFixture.basic("web", TokenFixture.webSecret))
                #expect(response.status == .badRequest)
                #expect(response.error == "unauthorized_client")
            }
            #expect(try await fixture.userInfo(try #require(tokens["access_token"])).status == .ok)
        }
    }

    @Test("revocation needs client authentication like /token")
    func revokeNeedsClient() async throws {
        try await TokenFixture.run { fixture in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let response = try await fixture.post("/revoke", [("token", refreshToken)])
            #expect(response.status == .unauthorized)
            #expect(response.error == "invalid_client")
            let wrong = try await fixture.post(
                "/revoke", [("token", refreshToken)], headers: TokenFixture.basic("web", "wrong"))
            #expect(wrong.status == .unauthorized)
            #expect(try await fixture.refresh(refreshToken).status == .ok)
        }
    }

    @Test("introspection describes an active access token to any confidential client", arguments: TokenBackend.allCases)
    func introspectAccessToken(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let response = try await introspect(fixture, accessToken, as: "backend")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.json["active"] == .bool(true))
            #expect(response["client_id"] == "native")
            #expect(response["sub"] == "user-1")
            #expect(response["scope"] == "openid email profile offline_access")
            #expect(response["token_type"] == "Bearer")
            #expect(response.json["exp"] == .number(fixture.clock.now.timeIntervalSince1970 + 600))

            #expect(try await revoke(fixture, accessToken).status == .ok)
            #expect(try await introspect(fixture, accessToken).json == ["active": .bool(false)])
        }
    }

    @Test("introspection describes a refresh token only to its own client, and only while it is usable")
    func introspectRefreshToken() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode(
                clientID: "web", redirectURI: TokenFixture.webRedirect)
            let tokens = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                    ("code_verifier", PKCE.fixture.verifier),
                ],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            let refreshToken = try #require(tokens["refresh_token"])
            let own = try await introspect(fixture, refreshToken)
            #expect(own.json["active"] == .bool(true))
            #expect(own["token_type"] == "refresh_token")
            #expect(own["client_id"] == "web")
            #expect(try await introspect(fixture, refreshToken, as: "backend").json == ["active": .bool(false)])

            let rotated = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(rotated.status == .ok)
            #expect(try await introspect(fixture, refreshToken).json == ["active": .bool(false)])
        }
    }

    @Test("garbage is inactive; a public client may not introspect")
    func introspectionRefusals() async throws {
        try await TokenFixture.run { fixture in
            #expect(try await introspect(fixture, "garbage").json == ["active": .bool(false)])
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let response = try await fixture.post("/introspect", [("token", accessToken), ("client_id", "native")])
            #expect(response.status == .unauthorized)
            #expect(response.error == "invalid_client")
        }
    }
}
