import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Browser sessions, sign-out and page headers")
struct BrowserSessionTests {
    @Test("the session cookie is HttpOnly, SameSite=Lax, Path=/, 12 h, and not Secure on an http issuer")
    func cookieFlags() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let line = try #require(browser.lastSetCookies.first { $0.hasPrefix("limen_session=") })
            let attributes = Set(line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=43200"]))
            #expect(!attributes.contains("Secure"))
            let value = try #require(browser.cookies[BrowserSessions.cookieName])
            #expect(Base64URL.decode(value)?.count == 32, "256 random bits")
            let stored = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(value), now: fixture.clock.now)
            #expect(stored?.subject == fixture.user.id)
            #expect(stored?.expiresAt == fixture.clock.now.addingTimeInterval(12 * 3600))
        }
    }

    @Test("on an https issuer the cookies are __Host- cookies: Secure, Path=/, no Domain")
    func secureCookies() async throws {
        try await withSignIn(issuer: "https://id.example") { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let csrf = try #require(browser.lastSetCookies.first { $0.hasPrefix("__Host-limen_csrf=") })
            _ = try await browser.signIn(fixture.client, from: form)
            let session = try #require(browser.lastSetCookies.first { $0.hasPrefix("__Host-limen_session=") })
            for line in [csrf, session] {
                let attributes = line.split(separator: ";").dropFirst().map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                #expect(attributes.contains("Secure") && attributes.contains("Path=/"))
                #expect(!attributes.contains { $0.lowercased().hasPrefix("domain=") })
            }
        }
    }

    @Test("a session expires after 12 hours: the form is shown again")
    func sessionExpires() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            fixture.clock.advance(by: 12 * 3600)
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(page.status == .ok && page.body.contains("action=\"login\""))
        }
    }

    @Test("signing in again replaces the session: the old cookie no longer opens one")
    func signInRotatesSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let first = try #require(browser.cookies[BrowserSessions.cookieName])
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            _ = try await browser.signIn(fixture.client, from: form)
            #expect(browser.cookies[BrowserSessions.cookieName] != first)
            let old = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(first), now: fixture.clock.now)
            #expect(old == nil)
        }
    }

    @Test("POST /logout with the CSRF token ends the session: row deleted, cookie cleared, SSO over")
    func logoutEndsSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let value = try #require(browser.cookies[BrowserSessions.cookieName])
            let confirm = try await browser.send(fixture.client, "/logout")
            #expect(confirm.status == .ok && confirm.body.contains("action=\"logout\""))

            let refused = try await browser.send(fixture.client, "/logout", method: .post, form: [("csrf", "x")])
            #expect(refused.status == .forbidden)
            #expect(browser.cookies[BrowserSessions.cookieName] == value, "a forged sign-out changes nothing")

            let done = try await browser.submit(fixture.client, confirm, to: "/logout", [])
            #expect(done.status == .ok)
            let cleared = try #require(browser.lastSetCookies.first { $0.hasPrefix("limen_session=") })
            #expect(cleared.contains("Max-Age=0"))
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            let row = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(value), now: fixture.clock.now)
            #expect(row == nil)

            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(page.body.contains("action=\"login\""))
            var replay = Browser(cookies: [BrowserSessions.cookieName: value])
            let replayed = try await replay.send(fixture.client, SignInFixture.authorizeURI([("prompt", "none")]))
            #expect(replayed.redirect?.query["error"] == "login_required", "the old cookie value is dead")
        }
    }

    @Test("pages carry CSP with frame-ancestors 'none' and no form-action, no-referrer, no-store; the CSS is served")
    func pageHeaders() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(csp.contains("style-src 'self'"))
            #expect(!csp.contains("form-action"), "Chromium would block the redirect after the POST")
            #expect(csp.contains("default-src 'none'"))
            #expect(csp.hasSuffix(PasskeyScript.directives), "the passkey script alone, by its hash (for its autofill)")
            #expect(
                page.body.contains(#"autocomplete="username webauthn""#), "passkeys offered as the username's autofill")
            #expect(page.body.contains(#"value="passkey" class="secondary" formnovalidate>"#))
            #expect(page.body.contains(#"data-mode="authenticate" data-mediation="conditional" data-options=""#))
            #expect(
                page.body.contains(
                    #"value="submit-passkey" formnovalidate data-passkey="passkey-autofill" hidden>"#),
                "the autofill's button, pressed by the script")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.body.contains("<link rel=\"stylesheet\" href=\"static/limen.css\">"))

            let css = try await browser.send(fixture.client, "/static/limen.css")
            #expect(css.status == .ok)
            #expect(css.headers[.contentType]?.hasPrefix("text/css") == true)
        }
    }

    @Test("every page template compiles")
    func templatesCompile() throws {
        _ = try Pages.compile()
        #expect(Pages.library != nil)
    }
}
