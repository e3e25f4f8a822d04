import Foundation
import HTTPTypes
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("token_type_hint orders the search and never hides a token (RFC 7009 §2.1, RFC 7662 §2.1)")
struct TokenTypeHintTests {
    @Test("a JWT-shaped token or the access_token hint is tried as an access token first; the other kind follows")
    func lookupOrder() {
        let jwtShaped = "a.b.c"
        let random = RandomToken.make()
        #expect(TokenKind.lookupOrder(of: jwtShaped, hint: nil) == [.accessToken, .refreshToken])
        #expect(TokenKind.lookupOrder(of: jwtShaped, hint: "refresh_token") == [.accessToken, .refreshToken])
        #expect(TokenKind.lookupOrder(of: random, hint: "access_token") == [.accessToken, .refreshToken])
        #expect(TokenKind.lookupOrder(of: random, hint: nil) == [.refreshToken, .accessToken])
        #expect(TokenKind.lookupOrder(of: random, hint: "refresh_token") == [.refreshToken, .accessToken])
    }

    /// Signs in as `web` (confidential, with refresh tokens) and returns the token response.
    private func webTokens(_ fixture: TokenFixture) async throws -> RecordedResponse {
        let code = try await fixture.issueCode(clientID: "web", redirectURI: TokenFixture.webRedirect)
        return try await fixture.post(
            "/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                ("code_verifier", PKCE.fixture.verifier),
            ],
            headers: TokenFixture.basic("web", TokenFixture.webSecret))
    }

    private func introspect(_ fixture: TokenFixture, _ token: String, hint: String) async throws -> RecordedResponse {
        try await fixture.post(
            "/introspect", [("token", token), ("token_type_hint", hint)],
            headers: TokenFixture.basic("web", TokenFixture.webSecret))
    }

    @Test("introspection finds each kind of token under the other kind's hint")
    func introspectionWithWrongHint() async throws {
        try await TokenFixture.run { fixture in
            let tokens = try await webTokens(fixture)
            let refresh = try await introspect(fixture, try #require(tokens["refresh_token"]), hint: "access_token")
            #expect(refresh.json["active"] == .bool(true))
            #expect(refresh["token_type"] == "refresh_token")
            let access = try await introspect(fixture, try #require(tokens["access_token"]), hint: "refresh_token")
            #expect(access.json["active"] == .bool(true))
            #expect(access["token_type"] == "Bearer")
        }
    }

    @Test("revocation of a refresh token under the access_token hint still revokes its grant")
    func revocationWithWrongHint() async throws {
        try await TokenFixture.run { fixture in
            let tokens = try await webTokens(fixture)
            let refreshToken = try #require(tokens["refresh_token"])
            let revoked = try await fixture.post(
                "/revoke", [("token", refreshToken), ("token_type_hint", "access_token")],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(revoked.status == .ok)
            #expect(try await introspect(fixture, refreshToken, hint: "refresh_token").json == ["active": .bool(false)])
            let access = try await introspect(fixture, try #require(tokens["access_token"]), hint: "access_token")
            #expect(access.json == ["active": .bool(false)])
        }
    }
}
