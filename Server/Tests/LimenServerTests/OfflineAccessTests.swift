import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenTestSupport
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Keycloak's model (issue 8, finding 6): a refresh token without `offline_access` ends with the browser session that
/// signed in for it; with `offline_access` it outlives that session.
@Suite("offline_access: only an offline grant outlives the browser session it came from")
struct OfflineAccessTests {
    @Test("without offline_access, signing out at /logout ends the grant: its refresh and access tokens stop working")
    func sessionGrantEndsAtLogout() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let tokens = try await Self.signIn(fixture, &browser, scope: "openid profile")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            let accessToken = try #require(tokens["access_token"]?.stringValue)
            #expect(try await Self.refresh(refreshToken, fixture).status == .ok, "the session still lasts")

            try await Self.signOut(fixture, &browser)
            let refreshed = try await Self.refresh(refreshToken, fixture)
            #expect(refreshed.status == .badRequest)
            #expect(refreshed.json["error"] == .string("invalid_grant"))
            let userInfo = try await fixture.client.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(accessToken)"]
            ) { $0.status }
            #expect(userInfo == .unauthorized)
        }
    }

    @Test("without offline_access the refresh token ends when its browser session expires, even before a sweep")
    func sessionGrantEndsWithSessionExpiry() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let tokens = try await Self.signIn(fixture, &browser, scope: "openid")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            fixture.clock.advance(by: 12 * 3600)
            #expect(try await Self.refresh(refreshToken, fixture).json["error"] == .string("invalid_grant"))
        }
    }

    @Test("signing in again in the same browser (prompt=login) keeps the grants of the session it replaces")
    func reauthenticationKeepsGrants() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let tokens = try await Self.signIn(fixture, &browser, scope: "openid")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            let form = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("scope", "openid"), ("prompt", "login")]))
            #expect(try await browser.signIn(fixture.client, from: form).redirect?.query["code"] != nil)
            let refreshed = try await Self.refresh(refreshToken, fixture)
            #expect(refreshed.status == .ok, "a new sign-in is not a sign-out")

            try await Self.signOut(fixture, &browser)
            let next = try #require(refreshed.json["refresh_token"]?.stringValue)
            #expect(try await Self.refresh(next, fixture).json["error"] == .string("invalid_grant"))
        }
    }

    @Test("with offline_access the grant survives /logout: its refresh token keeps working")
    func offlineGrantSurvivesLogout() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let tokens = try await Self.signIn(fixture, &browser, scope: "openid profile offline_access")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            try await Self.signOut(fixture, &browser)
            fixture.clock.advance(by: 13 * 3600)
            let refreshed = try await Self.refresh(refreshToken, fixture)
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["scope"] == .string("openid profile offline_access"))
        }
    }

    @Test("a code whose browser session was signed out before it was redeemed gives no tokens (no offline_access)")
    func signedOutBeforeRedemption() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let code = try await Self.code(fixture, &browser, scope: "openid")
            try await Self.signOut(fixture, &browser)
            let redeemed = try await Self.redeem(code, fixture)
            #expect(redeemed.status == .badRequest)
            #expect(redeemed.json["error"] == .string("invalid_grant"))
        }
    }

    @Test("discovery lists offline_access among scopes_supported")
    func discoveryListsOfflineAccess() async throws {
        try await withSignIn { fixture in
            let metadata = try await fixture.client.execute(
                uri: "/.well-known/openid-configuration", method: .get
            ) { try JSONDecoder().decode([String: JSONValue].self, from: Data($0.body.readableBytesView)) }
            guard case .array(let scopes)? = metadata["scopes_supported"] else {
                Issue.record("no scopes_supported")
                return
            }
            #expect(scopes.contains(.string("offline_access")))
        }
    }

    /// The code `limen-cli` gets for `scope` after `browser` signs in.
    private static func code(_ fixture: SignInFixture, _ browser: inout Browser, scope: String) async throws
        -> String
    {
        let form = try await browser.send(fixture.client, SignInFixture.authorizeURI([("scope", scope)]))
        return try #require(try await browser.signIn(fixture.client, from: form).redirect?.query["code"])
    }

    /// The token response for `browser`'s sign-in with `scope`.
    private static func signIn(_ fixture: SignInFixture, _ browser: inout Browser, scope: String) async throws
        -> [String: JSONValue]
    {
        let response = try await redeem(try await code(fixture, &browser, scope: scope), fixture)
        #expect(response.status == .ok)
        return response.json
    }

    /// Signs `browser` out through the `/logout` confirmation page.
    private static func signOut(_ fixture: SignInFixture, _ browser: inout Browser) async throws {
        let confirm = try await browser.send(fixture.client, "/logout")
        #expect(try await browser.submit(fixture.client, confirm, to: "/logout", []).status == .ok)
    }

    private static func redeem(_ code: String, _ fixture: SignInFixture) async throws -> Page {
        try await post(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
            ], fixture)
    }

    private static func refresh(_ refreshToken: String, _ fixture: SignInFixture) async throws -> Page {
        try await post(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "limen-cli")], fixture)
    }

    private static func post(_ form: [(String, String)], _ fixture: SignInFixture) async throws -> Page {
        Page(
            response: try await fixture.client.executeRequest(
                uri: "/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: FormEncoding.encode(form))))
    }
}
