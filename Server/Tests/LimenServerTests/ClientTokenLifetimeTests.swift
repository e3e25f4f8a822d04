import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Per-client token lifetimes")
struct ClientTokenLifetimeTests {
    /// A public native client with its own lifetimes, registered through the admin API.
    static let shortLived = """
        {"client_id": "short", "native": true, "redirect_uris": ["\(TokenFixture.nativeRedirect)"],
         "access_token_ttl": 120, "refresh_token_ttl": 900}
        """

    @Test("a client's own lifetimes, set through the admin API, reach expires_in, exp and the refresh token's expiry")
    func ownLifetimes() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: Self.shortLived)
            #expect(created.json["access_token_ttl"] == .number(120))
            #expect(created.json["refresh_token_ttl"] == .number(900))
            let tokens = try await fixture.redeem(try await fixture.issueCode(clientID: "short"), clientID: "short")
            #expect(tokens.status == .ok)
            #expect(tokens.json["expires_in"] == .number(120))
            let now = fixture.clock.now.timeIntervalSince1970
            #expect(try UnverifiedJWT(try #require(tokens["access_token"]))[claim: "exp"] == .number(now + 120))
            let refreshToken = try #require(tokens["refresh_token"])
            let stored = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(refreshToken))
            #expect(stored?.expiresAt == fixture.clock.now.addingTimeInterval(900))

            fixture.clock.advance(by: 901)
            let late = try await fixture.refresh(refreshToken, clientID: "short")
            #expect(late.error == "invalid_grant", "the client's refresh lifetime, not the server's 30 days")
        }
    }

    @Test("a client without its own lifetimes gets the server's")
    func serverLifetimes() async throws {
        let lifetimes = TokenLifetimes(accessToken: 240, refreshToken: 7200)
        let configure: (inout ServerConfiguration) -> Void = { $0.tokenLifetimes = lifetimes }
        try await TokenFixture.run(configure: configure) { fixture in
            let tokens = try await fixture.signIn()
            #expect(tokens.json["expires_in"] == .number(240))
            let refreshToken = try #require(tokens["refresh_token"])
            let stored = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(refreshToken))
            #expect(stored?.expiresAt == fixture.clock.now.addingTimeInterval(7200))
        }
    }

    @Test("a refreshed access token keeps the client's lifetime")
    func refreshKeepsLifetime() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            _ = try await fixture.admin(.post, "/admin/clients", token: token, json: Self.shortLived)
            let tokens = try await fixture.redeem(try await fixture.issueCode(clientID: "short"), clientID: "short")
            let refreshed = try await fixture.refresh(try #require(tokens["refresh_token"]), clientID: "short")
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["expires_in"] == .number(120))
        }
    }
}
