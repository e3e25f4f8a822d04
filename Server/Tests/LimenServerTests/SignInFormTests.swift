import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenTestSupport
import Testing

@testable import LimenServer

@Suite("Sign-in and sign-up forms")
struct SignInFormTests {
    @Test(
        "a POST without the CSRF token, with a wrong one, or without the CSRF cookie is refused (403); no session",
        arguments: ["missing", "wrong", "no cookie"]
    )
    func csrfRefused(_ variant: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(form.hiddenField("request"))
            let csrf = try #require(form.hiddenField("csrf"))
            var fields = [("request", requestID), ("email", SignInFixture.email), ("password", SignInFixture.password)]
            switch variant {
            case "wrong": fields.append(("csrf", String(csrf.reversed())))
            case "no cookie":
                fields.append(("csrf", csrf))
                browser = Browser()
            default: break
            }
            let refused = try await browser.send(fixture.client, "/login", method: .post, form: fields)
            #expect(refused.status == .forbidden)
            #expect(refused.isHTML)
            #expect(refused.headers[.location] == nil)
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            #expect(!browser.lastSetCookies.contains { $0.hasPrefix(BrowserSessions.cookieName) })

            // Nothing changed: the pending request still completes with the real form.
            var owner = Browser()
            let fresh = try await owner.send(fixture.client, SignInFixture.authorizeURI())
            #expect(try await owner.signIn(fixture.client, from: fresh).redirect?.query["code"] != nil)
        }
    }

    @Test("a CSRF token from one pending request does not pass for another")
    func csrfBoundToRequest() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let first = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let second = try await browser.send(fixture.client, SignInFixture.authorizeURI([("state", "s-2")]))
            let refused = try await browser.send(
                fixture.client, "/login", method: .post,
                form: [
                    ("request", try #require(second.hiddenField("request"))),
                    ("csrf", try #require(first.hiddenField("csrf"))),
                    ("email", SignInFixture.email), ("password", SignInFixture.password),
                ]
            )
            #expect(refused.status == .forbidden)
        }
    }

    @Test("a wrong password and an unknown email give the same page text and no session cookie")
    func noAccountEnumeration() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let wrongPassword = try await browser.signIn(fixture.client, from: form, password: "not the password")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            let unknownEmail = try await browser.signIn(
                fixture.client, from: form, email: "nobody@example.com", password: SignInFixture.password)
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)

            #expect(wrongPassword.status == .badRequest)
            #expect(unknownEmail.status == wrongPassword.status)
            #expect(wrongPassword.alert == "The email or password is not correct.")
            #expect(unknownEmail.alert == wrongPassword.alert)
            let sameText = unknownEmail.body.replacingOccurrences(of: "nobody@example.com", with: SignInFixture.email)
            #expect(sameText == wrongPassword.body)
            #expect(!wrongPassword.body.contains("not the password"), "the password is never echoed")
            #expect(wrongPassword.body.contains("aria-describedby=\"form-error\""), "the inputs point at the message")
        }
    }

    @Test("after repeated failures the form answers 429 with Retry-After, the same for a known and an unknown email")
    func lockout() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            var last: [String: Page] = [:]
            for email in [SignInFixture.email, "nobody@example.com"] {
                for _ in 0..<6 {
                    last[email] = try await browser.signIn(fixture.client, from: form, email: email, password: "wrong")
                }
            }
            let known = try #require(last[SignInFixture.email])
            let unknown = try #require(last["nobody@example.com"])
            #expect(known.status == .tooManyRequests)
            #expect(known.headers[.retryAfter] != nil)
            #expect(known.alert?.contains("Too many failed attempts") == true)
            #expect(unknown.status == known.status)
            #expect(unknown.alert == known.alert)
            let locked = try await browser.signIn(fixture.client, from: form)
            #expect(locked.status == .tooManyRequests, "even the right password waits")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
        }
    }

    @Test("login_hint prefills the email field; the page's lang follows an English ui_locales, else en")
    func loginHintAndLanguage() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let hinted = try await browser.send(
                fixture.client,
                SignInFixture.authorizeURI([("login_hint", "ada@example.com"), ("ui_locales", "fr-CA en-GB")])
            )
            #expect(hinted.body.contains("value=\"ada@example.com\""))
            #expect(hinted.body.contains("<html lang=\"en-GB\">"))
            let french = try await browser.send(fixture.client, SignInFixture.authorizeURI([("ui_locales", "fr")]))
            #expect(french.body.contains("<html lang=\"en\">"))
            let escaped = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("login_hint", "\"><script>alert(1)</script>")]))
            #expect(!escaped.body.contains("<script>"), "the hint is HTML-escaped")
        }
    }

    @Test("sign-up from the sign-in page's link creates the account, signs in and completes; then sign-in works")
    func signUpThenSignIn() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            #expect(signIn.body.contains("href=\"signup?request=\(requestID)\""))
            let signUp = try await browser.send(fixture.client, "/signup?request=\(requestID)")
            #expect(signUp.status == .ok)
            #expect(signUp.body.contains("autocomplete=\"new-password\""))
            #expect(signUp.body.contains("minlength=\"8\""))

            let created = try await browser.submit(
                fixture.client, signUp, to: "/signup",
                [
                    ("email", "Grace@Example.com"), ("name", "Grace Hopper"), ("password", "a long passphrase"),
                    ("password-verify", "a long passphrase"),
                ]
            )
            let code = try #require(created.redirect?.query["code"])
            #expect(created.redirect?.query["state"] == "s-1")
            let user = try #require(try await fixture.provider.store.user(email: "grace@example.com"))
            #expect(user.name == "Grace Hopper")
            let row = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(row?.subject == user.id)

            var other = Browser()
            let form = try await other.send(fixture.client, SignInFixture.authorizeURI())
            let done = try await other.signIn(
                fixture.client, from: form, email: "grace@example.com", password: "a long passphrase")
            #expect(done.redirect?.query["code"] != nil)
        }
    }

    @Test(
        "sign-up refusals re-show the form with the reason and create nothing",
        arguments: [
            ("not-an-email", "a long passphrase", "Enter an email address"),
            ("new@example.com", "short", "between 8 and"),
            (SignInFixture.email, "a long passphrase", "already exists"),
        ]
    )
    func signUpRefused(_ email: String, _ password: String, _ message: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let signUp = try await browser.send(
                fixture.client, "/signup?request=\(try #require(signIn.hiddenField("request")))")
            let refused = try await browser.submit(
                fixture.client, signUp, to: "/signup",
                [("email", email), ("password", password), ("password-verify", password)])
            #expect(refused.status == .badRequest)
            #expect(refused.alert?.contains(message) == true, "\(refused.alert ?? "no alert")")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            #expect(try await fixture.provider.store.users().count == 1)
        }
    }

    @Test("a sign-up POST without the CSRF token is refused (403) and creates no account")
    func signUpCSRF() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let refused = try await browser.send(
                fixture.client, "/signup", method: .post,
                form: [
                    ("request", try #require(signIn.hiddenField("request"))), ("email", "new@example.com"),
                    ("password", "a long passphrase"),
                ]
            )
            #expect(refused.status == .forbidden)
            #expect(try await fixture.provider.store.user(email: "new@example.com") == nil)
        }
    }

    @Test("forms refuse other media types (415) before touching anything")
    func formMediaType() async throws {
        try await withSignIn { fixture in
            let response = try await fixture.client.executeRequest(
                uri: "/login", method: .post, headers: [.contentType: "application/json"], body: nil)
            #expect(response.status == .unsupportedMediaType)
        }
    }
}
