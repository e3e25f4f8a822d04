import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Consent for third-party clients")
struct ConsentTests {
    /// Signs in to `web` and returns the consent page.
    private func consentPage(_ fixture: SignInFixture, _ browser: inout Browser, scope: String = "openid profile")
        async throws -> Page
    {
        let form = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web", [("scope", scope)]))
        return try await browser.signIn(fixture.client, from: form)
    }

    @Test("a third-party client gets the consent page: its name, the scopes, the account, Allow and Deny")
    func consentPageShown() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await consentPage(fixture, &browser, scope: "openid email")
            #expect(page.status == .ok)
            #expect(page.body.contains("action=\"consent\""))
            #expect(page.body.contains("Example Web"))
            #expect(page.body.contains("See your email address"))
            #expect(page.body.contains(SignInFixture.email))
            #expect(page.body.contains("value=\"allow\"") && page.body.contains("value=\"deny\""))
        }
    }

    @Test("Deny sends access_denied with state and iss, and issues no code")
    func deny() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await consentPage(fixture, &browser)
            let denied = try await browser.submit(fixture.client, page, to: "/consent", [("decision", "deny")])
            let redirect = try #require(denied.redirect)
            #expect(redirect.base == SignInFixture.webRedirect)
            #expect(redirect.query["error"] == "access_denied")
            #expect(redirect.query["state"] == "s-1")
            #expect(redirect.query["iss"] == fixture.issuer)
            #expect(redirect.query["code"] == nil)
            let granted = try await fixture.provider.store.grantedScopes(subject: fixture.user.id, clientID: "web")
            #expect(granted.isEmpty)
        }
    }

    @Test("Allow issues the code and is remembered: the next request skips the page, a new scope asks again")
    func allowRemembered() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await consentPage(fixture, &browser)
            let allowed = try await browser.submit(fixture.client, page, to: "/consent", [("decision", "allow")])
            let code = try #require(allowed.redirect?.query["code"])
            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now, clientID: "web")
            #expect(row?.clientID == "web")
            #expect(row?.redirectURI == SignInFixture.webRedirect)

            let again = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            #expect(again.redirect?.query["code"] != nil, "consent remembered for the same scopes")
            let wider = try await browser.send(
                fixture.client, SignInFixture.authorizeURI(client: "web", [("scope", "openid profile email")]))
            #expect(wider.status == .ok && wider.body.contains("action=\"consent\""))
            let forced = try await browser.send(
                fixture.client, SignInFixture.authorizeURI(client: "web", [("prompt", "consent")]))
            #expect(forced.body.contains("action=\"consent\""), "prompt=consent asks even when remembered")
        }
    }

    @Test("prompt=none with a session but no consent redirects consent_required")
    func consentRequired() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let page = try await browser.send(
                fixture.client, SignInFixture.authorizeURI(client: "web", [("prompt", "none")]))
            let redirect = try #require(page.redirect)
            #expect(redirect.query["error"] == "consent_required")
            #expect(redirect.query["state"] == "s-1")
        }
    }

    @Test("a consent POST after the session ended shows the sign-in form and grants nothing")
    func consentAfterSignOut() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await consentPage(fixture, &browser)
            let session = try #require(browser.cookies[BrowserSessions.cookieName])
            try await fixture.provider.store.deleteBrowserSession(idHash: RandomIdentifier.hash(session))
            let answer = try await browser.submit(fixture.client, page, to: "/consent", [("decision", "allow")])
            #expect(answer.status == .ok && answer.body.contains("action=\"login\""))
            #expect(try await fixture.provider.store.grantedScopes(subject: fixture.user.id, clientID: "web").isEmpty)
        }
    }

    @Test("the first-party limen-cli never shows the consent page")
    func firstPartySkipsConsent() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("scope", "openid profile email offline_access")]))
            #expect(try await browser.signIn(fixture.client, from: form).redirect?.query["code"] != nil)
        }
    }

    @Test("a consent POST with a wrong CSRF token, or from another signed-in user, is refused and grants nothing")
    func consentCSRF() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await consentPage(fixture, &browser)
            let forged = try await browser.send(
                fixture.client, "/consent", method: .post,
                form: [("request", try #require(page.hiddenField("request"))), ("csrf", "x"), ("decision", "allow")]
            )
            #expect(forged.status == .forbidden)

            // Another user signs in in the same browser: the page shown to Ada no longer passes.
            _ = try await fixture.provider.accounts.signUp(
                email: "eve@example.com", password: "another passphrase", name: nil, origin: RequestOrigin())
            let other = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            _ = try await browser.signIn(
                fixture.client, from: other, email: "eve@example.com", password: "another passphrase")
            let stale = try await browser.submit(fixture.client, page, to: "/consent", [("decision", "allow")])
            #expect(stale.status == .forbidden)
            #expect(try await fixture.provider.store.grantedScopes(subject: fixture.user.id, clientID: "web").isEmpty)
        }
    }

    @Test(
        "a consent posted for a request that forces a new sign-in, without signing in again, shows the sign-in form",
        arguments: ["prompt=login", "max_age=0", "id_token_hint"]
    )
    func forgedConsentSkippingForcedSignIn(_ force: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            let extra: (String, String) =
                switch force {
                case "prompt=login": ("prompt", "login")
                case "max_age=0": ("max_age", "0")
                default: ("id_token_hint", try await fixture.signedToken(subject: "someone-else"))
                }
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web", [extra]))
            #expect(form.body.contains("action=\"login\""), "the request asks for a new sign-in")
            let requestID = try #require(form.hiddenField("request"))
            // The browser's holder computes the consent form's token (as the CSRF key's holder could) and posts Allow.
            let purpose = CSRFToken.consentPurpose(requestID: requestID, subject: fixture.user.id)
            let forged = try await browser.send(
                fixture.client, "/consent", method: .post,
                form: [
                    ("request", requestID), ("csrf", try #require(fixture.csrfToken(in: browser, for: purpose))),
                    ("decision", "allow"),
                ]
            )
            #expect(forged.status == .ok && forged.body.contains("action=\"login\""), "the sign-in form again")
            #expect(forged.redirect == nil, "no code")
            #expect(try await fixture.provider.store.grantedScopes(subject: fixture.user.id, clientID: "web").isEmpty)

            // Signing in as asked leads to the consent page, whose Allow issues the code.
            let consent = try await browser.signIn(fixture.client, from: form)
            #expect(consent.body.contains("action=\"consent\""))
            let allowed = try await browser.submit(fixture.client, consent, to: "/consent", [("decision", "allow")])
            #expect(allowed.redirect?.query["code"] != nil)
        }
    }

    @Test("a forced sign-in counts only for the session that made it: a later session must sign in again")
    func forcedSignInBoundToSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(
                fixture.client, SignInFixture.authorizeURI(client: "web", [("prompt", "login")]))
            let consent = try await browser.signIn(fixture.client, from: form)
            #expect(consent.body.contains("action=\"consent\""))
            // Another sign-in in another tab replaces the session; the consent page's request is not satisfied by it.
            let other = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            #expect(try await browser.signIn(fixture.client, from: other).redirect?.query["code"] != nil)
            let answer = try await browser.submit(fixture.client, consent, to: "/consent", [("decision", "allow")])
            #expect(answer.status == .ok && answer.body.contains("action=\"login\""))
            #expect(try await fixture.provider.store.grantedScopes(subject: fixture.user.id, clientID: "web").isEmpty)
        }
    }
}
