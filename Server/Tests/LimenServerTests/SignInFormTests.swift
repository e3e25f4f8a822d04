import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

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
            // Each page carries its own one-use passkey challenge; the rest must be the same.
            let sameText = Self.withoutChallenge(
                unknownEmail.body.replacingOccurrences(of: "nobody@example.com", with: SignInFixture.email))
            #expect(sameText == Self.withoutChallenge(wrongPassword.body))
            #expect(!wrongPassword.body.contains("not the password"), "the password is never echoed")
            #expect(wrongPassword.body.contains("aria-describedby=\"form-error\""), "the inputs point at the message")
        }
    }

    /// `page` with its passkey challenge (`"challenge":"…"` in the autofill's options) left out.
    private static func withoutChallenge(_ page: String) -> String {
        page.replacing(/challenge&quot;:&quot;[A-Za-z0-9_-]+&quot;/, with: "challenge")
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
            #expect(!escaped.body.contains("<script>alert(1)"), "the hint is HTML-escaped")
        }
    }

    @Test(
        "sign-up from the sign-in page's link: the email, then the mailed code and a password create the account, verified, and complete; then sign-in works",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func signUpThenSignIn() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            #expect(signIn.body.contains("href=\"signup?request=\(requestID)\""))
            let signUp = try await browser.send(fixture.client, "/signup?request=\(requestID)")
            #expect(signUp.status == .ok)
            #expect(signUp.body.contains("<h1>Create your account</h1>"))
            #expect(!signUp.body.contains("type=\"password\""), "the first step asks only for the email")
            let sent = try await browser.submit(fixture.client, signUp, to: "/signup", [("email", "Grace@Example.com")])
            #expect(sent.body.contains("autocomplete=\"one-time-code\""))
            #expect(sent.body.contains("autocomplete=\"new-password\""))
            #expect(sent.body.contains("minlength=\"8\""))
            #expect(try await fixture.provider.store.user(email: "grace@example.com") == nil, "not before the code")

            let created = try await browser.submit(
                fixture.client, sent, to: "/signup",
                [
                    ("code", try await peer.lastCode()), ("name", "Grace Hopper"), ("password", "a long passphrase"),
                    ("password-verify", "a long passphrase"),
                ]
            )
            let code = try #require(created.redirect?.query["code"])
            #expect(created.redirect?.query["state"] == "s-1")
            let user = try #require(try await fixture.provider.store.user(email: "grace@example.com"))
            #expect(user.name == "Grace Hopper")
            #expect(user.emailVerified)
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

    @Test("sign-up refusals re-show the step with the reason and create nothing: a bad address, then a short password")
    func signUpRefused() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let signUp = try await browser.send(
                fixture.client, "/signup?request=\(try #require(signIn.hiddenField("request")))")
            let badAddress = try await browser.submit(
                fixture.client, signUp, to: "/signup", [("email", "not-an-email")])
            #expect(badAddress.status == .badRequest)
            #expect(badAddress.body.contains("<h1>Create your account</h1>"))
            #expect(badAddress.alert?.contains("Enter an email address") == true, "\(badAddress.alert ?? "no alert")")
            let sent = try await browser.submit(
                fixture.client, badAddress, to: "/signup", [("email", "new@example.com")])
            let short = try await browser.submit(
                fixture.client, sent, to: "/signup",
                [("code", "123456"), ("password", "short"), ("password-verify", "short")])
            #expect(short.status == .badRequest)
            #expect(short.body.contains("<h1>Confirm your email address</h1>"))
            #expect(short.alert?.contains("between 8 and") == true, "\(short.alert ?? "no alert")")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            #expect(try await fixture.provider.store.users().count == 1)
        }
    }

    @Test(
        "sign-up with a taken address shows the pages a new address gets; its owner is mailed a notice and every code is refused",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func signUpTakenAddress() async throws {
        try await withMailedSignIn { fixture, peer in
            func codeStep(_ browser: inout Browser, _ email: String) async throws -> Page {
                let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
                let signUp = try await browser.send(
                    fixture.client, "/signup?request=\(try #require(signIn.hiddenField("request")))")
                return try await browser.submit(fixture.client, signUp, to: "/signup", [("email", email)])
            }
            var (newcomer, stranger) = (Browser(), Browser())
            let forNew = try await codeStep(&newcomer, "new@example.com")
            let newCode = try await peer.lastCode()
            let forTaken = try await codeStep(&stranger, SignInFixture.email)
            #expect(forTaken.status == forNew.status)
            #expect(
                forTaken.withoutFormSecrets == forNew.withoutFormSecrets, "the same page, but for its form's secrets")
            let notice = try #require(await peer.messages().last)
            #expect(notice.contains("X-Envelope-To: \(SignInFixture.email)"))
            #expect(notice.contains("Subject: Someone tried to create an account with your address"))

            // A wrong code is refused alike for both; the new address's own code is refused for the taken one too.
            let wrong = newCode == "000000" ? "111111" : "000000"
            let fields = [
                ("code", wrong), ("name", "Mallory"), ("password", "a long passphrase"),
                ("password-verify", "a long passphrase"),
            ]
            let takenAnswer = try await stranger.submit(fixture.client, forTaken, to: "/signup", fields)
            let newAnswer = try await newcomer.submit(fixture.client, forNew, to: "/signup", fields)
            let withNewCode = try await stranger.submit(
                fixture.client, takenAnswer, to: "/signup", [("code", newCode)] + fields.dropFirst())
            #expect(withNewCode.status == .badRequest, "another address's code does not work either")
            #expect(takenAnswer.status == .badRequest)
            #expect(takenAnswer.withoutFormSecrets == newAnswer.withoutFormSecrets, "the same refusal")
            #expect(try await fixture.provider.store.user(email: SignInFixture.email)?.name == "Ada")
            #expect(stranger.cookies[BrowserSessions.cookieName] == nil)
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
