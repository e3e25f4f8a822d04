import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign-in: /authorize to a code")
struct SignInFlowTests {
    @Test("sign-in page, credentials with the CSRF token, then a 302 with code, state and iss; the code row is right")
    func fullFlow() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(form.status == .ok)
            #expect(form.isHTML)
            #expect(form.body.contains("action=\"login\""))
            #expect(form.hiddenField("csrf")?.isEmpty == false)

            let done = try await browser.signIn(fixture.client, from: form)
            let redirect = try #require(done.redirect)
            #expect(redirect.base == SignInFixture.cliRedirect)
            #expect(redirect.query["state"] == "s-1")
            #expect(redirect.query["iss"] == fixture.issuer)
            let code = try #require(redirect.query["code"])
            #expect(Base64URL.decode(code)?.count == 32)

            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            let stored = try #require(row)
            #expect(stored.clientID == "limen-cli")
            #expect(stored.redirectURI == SignInFixture.cliRedirect)
            #expect(stored.subject == fixture.user.id)
            #expect(stored.scope == "openid profile")
            #expect(stored.nonce == "n-1")
            #expect(stored.codeChallenge == SignInFixture.challenge)
            #expect(stored.authTime == fixture.clock.now)
            #expect(stored.expiresAt == fixture.clock.now.addingTimeInterval(60))
        }
    }

    @Test("with a session cookie a second /authorize skips the form (single sign-on)")
    func singleSignOn() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            _ = try await browser.signIn(fixture.client, from: form)
            fixture.clock.advance(by: 300)

            let again = try await browser.send(fixture.client, SignInFixture.authorizeURI([("state", "s-2")]))
            let redirect = try #require(again.redirect)
            #expect(redirect.query["state"] == "s-2")
            let code = try #require(redirect.query["code"])
            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(row?.authTime == fixture.clock.now.addingTimeInterval(-300), "auth_time is the sign-in's")

            var stranger = Browser()
            let page = try await stranger.send(fixture.client, SignInFixture.authorizeURI())
            #expect(page.status == .ok && page.body.contains("action=\"login\""), "no cookie, no single sign-on")
        }
    }

    @Test("prompt=none without a session redirects login_required with state and iss")
    func promptNoneWithoutSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "none")]))
            let redirect = try #require(page.redirect)
            #expect(redirect.base == SignInFixture.cliRedirect)
            #expect(redirect.query["error"] == "login_required")
            #expect(redirect.query["state"] == "s-1")
            #expect(redirect.query["iss"] == fixture.issuer)
            #expect(redirect.query["code"] == nil)
        }
    }

    @Test("prompt=none with a session answers with a code at once")
    func promptNoneWithSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "none")]))
            #expect(page.redirect?.query["code"] != nil)
        }
    }

    @Test(
        "prompt=login, select_account and max_age=0 show the form despite a session; signing in then completes",
        arguments: [("prompt", "login"), ("prompt", "select_account"), ("max_age", "0")]
    )
    func freshSignInRequired(_ name: String, _ value: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI([(name, value)]))
            #expect(form.status == .ok)
            #expect(form.body.contains("action=\"login\""))
            fixture.clock.advance(by: 5)
            let done = try await browser.signIn(fixture.client, from: form)
            let code = try #require(done.redirect?.query["code"])
            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(row?.authTime == fixture.clock.now, "auth_time is the new sign-in's")
        }
    }

    @Test("max_age: a sign-in younger than max_age is reused; an older one shows the form")
    func maxAge() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            fixture.clock.advance(by: 60)
            let young = try await browser.send(fixture.client, SignInFixture.authorizeURI([("max_age", "120")]))
            #expect(young.redirect?.query["code"] != nil)
            fixture.clock.advance(by: 61)
            let old = try await browser.send(fixture.client, SignInFixture.authorizeURI([("max_age", "120")]))
            #expect(old.status == .ok && old.body.contains("action=\"login\""))
            let none = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("max_age", "120"), ("prompt", "none")]))
            #expect(none.redirect?.query["error"] == "login_required")
        }
    }

    @Test(
        "scopes: an unknown scope or a request without openid is invalid_scope at the redirect",
        arguments: ["openid unknown", "profile email", ""]
    )
    func invalidScope(_ scope: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI([("scope", scope)]))
            let redirect = try #require(page.redirect)
            #expect(redirect.query["error"] == "invalid_scope")
            #expect(redirect.query["state"] == "s-1")
            #expect(redirect.query["iss"] == fixture.issuer)
        }
    }

    @Test("a repeated scope is granted once")
    func repeatedScope() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("scope", "openid email openid")]))
            let code = try #require(try await browser.signIn(fixture.client, from: form).redirect?.query["code"])
            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(row?.scope == "openid email")
        }
    }

    @Test("prompt=none cannot be combined; unknown prompt values and a bad max_age are invalid_request")
    func invalidPromptAndMaxAge() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            for extra in [
                [("prompt", "none login")], [("prompt", "sometimes")], [("max_age", "-1")], [("max_age", "x")],
            ] {
                let page = try await browser.send(fixture.client, SignInFixture.authorizeURI(extra))
                #expect(page.redirect?.query["error"] == "invalid_request", "\(extra)")
            }
        }
    }

    @Test("an expired pending request (11 minutes later) shows an error page and signs nobody in")
    func expiredPendingRequest() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            fixture.clock.advance(by: 11 * 60)
            let late = try await browser.signIn(fixture.client, from: form)
            #expect(late.status == .badRequest)
            #expect(late.isHTML)
            #expect(late.body.contains("expired"))
            #expect(late.headers[.location] == nil)
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            let requestID = try #require(form.hiddenField("request"))
            let gone = try await browser.send(fixture.client, "/login?request=\(requestID)")
            #expect(gone.status == .badRequest)
        }
    }

    @Test("a request completes once: submitting the same form again does not issue a second code")
    func completesOnce() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(try await browser.signIn(fixture.client, from: form).redirect?.query["code"] != nil)
            let again = try await browser.signIn(fixture.client, from: form)
            #expect(again.status == .badRequest)
            #expect(again.redirect == nil)
        }
    }
}
