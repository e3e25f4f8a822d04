import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("RP-initiated logout: /end_session")
struct EndSessionTests {
    /// A browser signed in as the fixture's user.
    private func signedIn(_ fixture: SignInFixture) async throws -> Browser {
        var browser = Browser()
        _ = try await browser.signIn(
            fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
        return browser
    }

    /// Whether the browser's session cookie still names a live session in the store.
    private func hasSession(_ browser: Browser, _ fixture: SignInFixture) async throws -> Bool {
        guard let value = browser.cookies[BrowserSessions.cookieName] else { return false }
        let record = try await fixture.provider.store.browserSession(
            idHash: RandomIdentifier.hash(value), now: fixture.clock.now)
        return record != nil
    }

    private func endSessionURI(_ fields: [(String, String)]) -> String {
        "/end_session?" + FormEncoding.encode(fields)
    }

    @Test("a hint for the session's user and a registered URI: session deleted, cookie cleared, 302 with state")
    func registeredRedirect() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let cookie = try #require(browser.cookies[BrowserSessions.cookieName])
            let hint = try await fixture.signedToken(subject: fixture.user.id)
            let page = try await browser.send(
                fixture.client,
                endSessionURI([
                    ("id_token_hint", hint), ("post_logout_redirect_uri", SignInFixture.webSignedOut), ("state", "x y"),
                ])
            )
            #expect(page.status == .found)
            #expect(page.headers[.location] == SignInFixture.webSignedOut + "?state=x%20y")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil, "the cookie is cleared")
            let stored = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(cookie), now: fixture.clock.now)
            #expect(stored == nil, "the session row is gone")
            let next = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(next.body.contains("action=\"login\""))
        }
    }

    @Test("an unregistered post_logout_redirect_uri is never followed: the session ends on a page")
    func unregisteredRedirect() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: fixture.user.id)
            for uri in ["https://evil.example/", SignInFixture.webSignedOut + "/", SignInFixture.webRedirect] {
                let page = try await browser.send(
                    fixture.client, endSessionURI([("id_token_hint", hint), ("post_logout_redirect_uri", uri)]))
                #expect(page.status == .ok && page.isHTML)
                #expect(page.headers[.location] == nil)
                #expect(page.body.contains("You are signed out"))
            }
            #expect(try await !hasSession(browser, fixture))
        }
    }

    @Test("client_id that is not the hint's audience: refused, no redirect, the session stays")
    func mismatchingClient() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: fixture.user.id, audience: "limen-cli")
            let page = try await browser.send(
                fixture.client,
                endSessionURI([
                    ("id_token_hint", hint), ("client_id", "web"),
                    ("post_logout_redirect_uri", SignInFixture.webSignedOut),
                ])
            )
            #expect(page.status == .badRequest && page.isHTML)
            #expect(page.headers[.location] == nil)
            #expect(try await hasSession(browser, fixture))
        }
    }

    @Test("a hint issued to another client does not unlock this client's redirect URI")
    func hintOfAnotherClient() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: fixture.user.id, audience: "limen-cli")
            let page = try await browser.send(
                fixture.client,
                endSessionURI([("id_token_hint", hint), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
            )
            #expect(page.status == .ok && page.isHTML)
            #expect(page.headers[.location] == nil)
        }
    }

    @Test("no hint: a confirmation page; its form with the CSRF token ends the session and redirects")
    func confirmationWithoutHint() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let confirm = try await browser.send(
                fixture.client,
                endSessionURI([
                    ("client_id", "web"), ("post_logout_redirect_uri", SignInFixture.webSignedOut), ("state", "s-9"),
                    ("ui_locales", "en-GB fr"),
                ])
            )
            #expect(confirm.status == .ok && confirm.body.contains("action=\"end_session\""))
            #expect(confirm.body.contains("<html lang=\"en-GB\">"))
            #expect(confirm.body.contains("Example Web asks you to sign out"))
            #expect(try await hasSession(browser, fixture), "a plain GET does not end the session")
            let form = ["client_id", "post_logout_redirect_uri", "state", EndSessionRoutes.confirmationField]
                .compactMap { name in confirm.hiddenField(name).map { (name, $0) } }
            #expect(form.count == 4)
            let done = try await browser.submit(fixture.client, confirm, to: "/end_session", form)
            #expect(done.headers[.location] == SignInFixture.webSignedOut + "?state=s-9")
            #expect(try await !hasSession(browser, fixture))
        }
    }

    @Test("a client's POST with a hint for the session's user ends the session as the GET does")
    func postFromClient() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: fixture.user.id)
            let page = try await browser.send(
                fixture.client, "/end_session", method: .post,
                form: [("id_token_hint", hint), ("post_logout_redirect_uri", SignInFixture.webSignedOut)]
            )
            #expect(page.headers[.location] == SignInFixture.webSignedOut)
            #expect(try await !hasSession(browser, fixture))
        }
    }

    @Test("the confirmation posted without its CSRF token is refused with 403 and the session stays")
    func confirmationWithoutCSRF() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            for csrf in [nil, "forged"] {
                let form = [(EndSessionRoutes.confirmationField, "yes")] + (csrf.map { [("csrf", $0)] } ?? [])
                let page = try await browser.send(fixture.client, "/end_session", method: .post, form: form)
                #expect(page.status == .forbidden)
            }
            #expect(try await hasSession(browser, fixture))
        }
    }

    @Test("a hint naming another user than the session's asks for confirmation")
    func hintForAnotherUser() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let hint = try await fixture.signedToken(subject: "someone-else")
            let page = try await browser.send(
                fixture.client,
                endSessionURI([("id_token_hint", hint), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
            )
            #expect(page.status == .ok && page.body.contains("action=\"end_session\""))
            #expect(!page.body.contains(hint), "the hint is not echoed into the page")
            #expect(try await hasSession(browser, fixture))
        }
    }

    @Test("a hint not signed by this provider is refused: no redirect, the session stays")
    func forgedHint() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let foreignKeys = KeyRing(keys: [try SigningKey.generate(algorithm: .es256, now: fixture.clock.now)])
            let forged = try await fixture.signedToken(subject: fixture.user.id, keys: foreignKeys)
            for hint in [forged, "not-a-jwt"] {
                let page = try await browser.send(
                    fixture.client,
                    endSessionURI([("id_token_hint", hint), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
                )
                #expect(page.status == .badRequest && page.isHTML)
                #expect(page.headers[.location] == nil)
            }
            #expect(try await hasSession(browser, fixture))
        }
    }

    @Test(
        "an access token, or a token issued to no registered client, is not an id_token_hint: refused, the session stays",
        arguments: [
            ("at+jwt", "issuer"), ("at+jwt", "web"), ("application/at+jwt", "web"), ("JWT", "issuer"),
            ("JWT", "nobody"),
        ]
    )
    func accessTokenAsHint(type: String, audience: String) async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let token = try await fixture.signedToken(
                subject: fixture.user.id, audience: audience == "issuer" ? fixture.issuer : audience, type: type)
            let page = try await browser.send(
                fixture.client,
                endSessionURI([("id_token_hint", token), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
            )
            #expect(page.status == .badRequest && page.isHTML)
            #expect(page.headers[.location] == nil)
            #expect(try await hasSession(browser, fixture))
        }
    }

    @Test("the SDK's end-session URL, from discovered metadata, is accepted: signed out and sent back with state")
    func sdkEndSessionURL() async throws {
        try await withSignIn { fixture in
            var browser = try await signedIn(fixture)
            let discovery = try await browser.send(fixture.client, "/.well-known/openid-configuration")
            let metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(discovery.body.utf8))
            let endpoint = try #require(metadata.endSessionEndpoint)
            #expect(endpoint.absoluteString == fixture.issuer + "/end_session")
            let request = EndSessionRequest(
                idTokenHint: try await fixture.signedToken(subject: fixture.user.id),
                postLogoutRedirectURI: URL(string: SignInFixture.webSignedOut),
                state: "sdk-state",
                clientID: "web"
            )
            let url = request.url(endSessionEndpoint: endpoint)
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            let page = try await browser.send(
                fixture.client, components.path + "?" + (components.percentEncodedQuery ?? ""))
            #expect(page.headers[.location] == SignInFixture.webSignedOut + "?state=sdk-state")
            #expect(try await !hasSession(browser, fixture))
        }
    }

    @Test("without a session, a registered redirect is followed at once; otherwise a signed-out page")
    func withoutSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let registered = try await browser.send(
                fixture.client,
                endSessionURI([("client_id", "web"), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
            )
            #expect(registered.headers[.location] == SignInFixture.webSignedOut)
            let unknownClient = try await browser.send(
                fixture.client,
                endSessionURI([("client_id", "nobody"), ("post_logout_redirect_uri", SignInFixture.webSignedOut)])
            )
            #expect(unknownClient.status == .ok && unknownClient.headers[.location] == nil)
        }
    }
}
