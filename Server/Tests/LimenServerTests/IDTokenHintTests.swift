import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("id_token_hint")
struct IDTokenHintTests {
    /// A browser signed in as the fixture's user.
    private func signedIn(_ fixture: SignInFixture) async throws -> Browser {
        var browser = Browser()
        _ = try await browser.signIn(
            fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
        return browser
    }

    @Test("prompt=none with an (expired) hint naming the signed-in user answers with a code")
    func hintMatchesSession() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: fixture.user.id, audience: "limen-cli")
            let page = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("prompt", "none"), ("id_token_hint", hint)]))
            #expect(page.redirect?.query["code"] != nil)
        }
    }

    @Test("a hint naming someone else: login_required with prompt=none, the sign-in form otherwise")
    func hintNamesSomeoneElse() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: "someone-else", audience: "limen-cli")
            let silent = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("prompt", "none"), ("id_token_hint", hint)]))
            #expect(silent.redirect?.query["error"] == "login_required")
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI([("id_token_hint", hint)]))
            #expect(form.status == .ok && form.body.contains("action=\"login\""))
        }
    }

    @Test("a hint not signed by this provider's keys, or from another issuer, is invalid_request")
    func foreignHint() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let foreignKeys = KeyRing(keys: [try SigningKey.generate(algorithm: .es256, now: fixture.clock.now)])
            let forged = try await fixture.signedToken(
                subject: fixture.user.id, audience: "limen-cli", keys: foreignKeys)
            let otherIssuer = try await fixture.signedToken(
                subject: fixture.user.id, audience: "limen-cli", issuer: "https://other.example")
            for hint in [forged, otherIssuer, "not-a-jwt"] {
                let page = try await browser.send(
                    fixture.client, SignInFixture.authorizeURI([("prompt", "none"), ("id_token_hint", hint)]))
                let redirect = try #require(page.redirect)
                #expect(redirect.query["error"] == "invalid_request")
                #expect(redirect.query["state"] == "s-1")
            }
        }
    }

    @Test("an access token (typ at+jwt, aud the issuer) naming the signed-in user is not an id_token_hint")
    func accessTokenHint() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let token = try await fixture.signedToken(
                subject: fixture.user.id, audience: fixture.issuer, type: "at+jwt")
            let page = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("prompt", "none"), ("id_token_hint", token)]))
            #expect(page.redirect?.query["error"] == "invalid_request")
            #expect(page.redirect?.query["code"] == nil)
        }
    }
}
