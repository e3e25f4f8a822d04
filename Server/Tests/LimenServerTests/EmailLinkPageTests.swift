import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The link of a code's email as the issuer's page receives it: the interaction and the code of its fragment.
private struct MailedLink {
    let interaction: String
    let code: String

    /// The link in the text part of the last message `peer` kept, which must lead to `issuer`'s link page.
    init(lastMailOf peer: SMTPPeer, issuer: String) async throws {
        let message = try #require(await peer.messages().last)
        let text = try #require(SMTPPeer.parts(of: message)["text/plain"])
        let prefix = issuer + EmailLink.hostedPath + "#limen_interaction="
        let start = try #require(text.range(of: prefix), "the link to the page is in \(text)")
        let link = text[start.upperBound...].prefix { !$0.isWhitespace }
        let parts = link.components(separatedBy: "&code=")
        try #require(parts.count == 2, "interaction and code in \(link)")
        interaction = try #require(parts[0].removingPercentEncoding)
        code = try #require(parts[1].removingPercentEncoding)
    }
}

extension Browser {
    /// Opens the link page, then posts what its script would: the fragment's `interaction` and `code` with the page's
    /// CSRF token (`csrf` instead, when given).
    mutating func follow(
        _ interaction: String,
        code: String,
        csrf: String? = nil,
        _ client: any TestClientProtocol
    ) async throws -> Page {
        let page = try await send(client, EmailLink.hostedPath)
        let token = try #require(csrf ?? page.hiddenField("csrf"))
        return try await send(
            client, EmailLinkRoutes.submitPath, method: .post,
            form: [("csrf", token), ("interaction", interaction), ("code", code)])
    }

    /// Starts a sign-in of `client` and asks flow `path` (`email-code`, `password-reset`, `signup`) for a code for
    /// `email`; returns the pending request's ID.
    mutating func askForCode(
        _ fixture: SignInFixture,
        client: String = "limen-cli",
        page path: String = "email-code",
        email: String = SignInFixture.email
    ) async throws -> String {
        let signIn = try await send(fixture.client, SignInFixture.authorizeURI(client: client))
        let requestID = try #require(signIn.hiddenField("request"))
        let page = try await send(fixture.client, "/\(path)?request=\(requestID)")
        let sent = try await submit(fixture.client, page, to: "/\(path)", [("email", email)])
        #expect(sent.status == .ok && sent.body.contains(#"autocomplete="one-time-code""#), "the code's step")
        return requestID
    }
}

@Suite(
    "An email's link opened in a browser: the page at /flows/link and POST /email-link",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct EmailLinkPageTests {
    @Test("the link page runs one script, allowed by its hash alone, and says what to do without scripts")
    func linkPage() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, EmailLink.hostedPath)
            #expect(page.status == .ok && page.isHTML)
            let script = try #require(
                page.body.range(of: "<script>").flatMap { open in
                    page.body[open.upperBound...].range(of: "</script>").map {
                        page.body[open.upperBound..<$0.lowerBound]
                    }
                })
            let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.hasSuffix("; script-src 'sha256-\(hash)'"), "the served script is the one allowed")
            #expect(policy.hasPrefix(Pages.contentSecurityPolicy), "otherwise the pages' policy")
            #expect(page.body.components(separatedBy: "<script").count == 2, "one script")
            #expect(script.contains("history.replaceState"), "the fragment leaves the address bar and the history")
            #expect(page.body.contains("<noscript>"))
            #expect(page.body.contains(#"<form id="link-form" method="post" action="../email-link" hidden>"#))
            #expect(page.body.contains(#"href="../static/limen.css""#), "the stylesheet from below the root")
            #expect(page.hiddenField("csrf") != nil)
            #expect(browser.cookies[BrowserCookies(issuer: fixture.issuer).csrfName] != nil, "the CSRF cookie is set")
            #expect(page.headers[.cacheControl] == "no-store")
        }
    }

    @Test("opened in the browser that asked, the link signs in as the typed code would and returns to the client")
    func sameBrowserSignsIn() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            let requestID = try await browser.askForCode(fixture)
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            #expect(link.interaction == "page.\(requestID)")
            let done = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(done.redirect?.base == SignInFixture.cliRedirect)
            #expect(done.redirect?.query["code"] != nil, "the first-party request completes at once")
            #expect(browser.cookies[BrowserSessions.cookieName] != nil, "a browser session started")
            #expect(try await fixture.provider.store.user(email: SignInFixture.email)?.emailVerified == true)

            let replayed = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(replayed.status == .badRequest && replayed.body.contains("<h1>This link no longer works</h1>"))
        }
    }

    @Test("for a client that asks consent, the link leads to the consent page, as the typed code would")
    func sameBrowserConsent() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            _ = try await browser.askForCode(fixture, client: "web")
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            let consent = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(consent.status == .ok && consent.body.contains("<h1>Allow access?</h1>"))
            #expect(consent.body.contains(#"<form method="post" action="consent">"#), "relative to the issuer's root")
        }
    }

    @Test(
        "when the step also asks for a new password, the link shows its page with the code filled in; setting it completes",
        arguments: [
            ("password-reset", SignInFixture.email, "Choose a new password"),
            ("signup", "new@example.com", "Confirm your email address"),
        ])
    func codeFilledIn(_ path: String, email: String, heading: String) async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            _ = try await browser.askForCode(fixture, page: path, email: email)
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            let step = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(step.status == .ok && step.body.contains("<h1>\(heading)</h1>"))
            #expect(step.body.contains(#"value="\#(link.code)""#), "the code is filled in")
            #expect(step.body.contains(#"action="\#(path)""#))
            let password = "a brand new password"
            let done = try await browser.submit(
                fixture.client, step, to: "/\(path)",
                [("code", link.code), ("password", password), ("password-verify", password)])
            #expect(done.redirect?.query["code"] != nil, "the code still worked: the link did not use it")
        }
    }

    @Test("opened in another browser, the link does not use the code and shows it to type where it was asked")
    func otherBrowser() async throws {
        try await withMailedSignIn { fixture, peer in
            var owner = Browser()
            _ = try await owner.askForCode(fixture)
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            var other = Browser()
            let elsewhere = try await other.follow(link.interaction, code: link.code, fixture.client)
            #expect(
                elsewhere.status == .ok && elsewhere.body.contains("<h1>Continue where you asked for the code</h1>"))
            #expect(elsewhere.body.contains(#"<p class="code" id="link-code">\#(link.code)</p>"#))
            #expect(other.cookies[BrowserSessions.cookieName] == nil, "nobody is signed in there")
            let crafted = try await other.follow(link.interaction, code: "Call +1 555 0100", fixture.client)
            #expect(!crafted.body.contains("555"), "only a code's digits are shown")

            let done = try await owner.follow(link.interaction, code: link.code, fixture.client)
            #expect(done.redirect?.query["code"] != nil, "the code still works where it was asked")
        }
    }

    @Test("an app's sign-in: the link opened in a browser does not use the code; the app's step still takes it")
    func nativeInteraction() async throws {
        try await withMailedSignIn { fixture, peer in
            let started = try await fixture.client.executeRequest(
                uri: "/flows/email-code", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(
                    string: FormEncoding.encode([
                        ("client_id", "limen-cli"), ("redirect_uri", SignInFixture.cliRedirect), ("scope", "openid"),
                        ("code_challenge", SignInFixture.challenge), ("code_challenge_method", "S256"),
                    ])))
            let id = try #require(
                try JSONValue(parsing: Data(started.body.readableBytesView)).objectValue?["interaction"]?.stringValue)
            func submit(_ node: String, _ values: [String: JSONValue]) async throws -> JSONValue {
                let body = JSONValue.object([
                    "node": .string(node), "action": .string("submit"), "values": .object(values),
                ])
                let response = try await fixture.client.executeRequest(
                    uri: "/flows/interactions/\(id)", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(bytes: body.serialized()))
                return try JSONValue(parsing: Data(response.body.readableBytesView))
            }
            _ = try await submit("email", ["email": .string(SignInFixture.email)])
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            #expect(link.interaction == id)

            var browser = Browser()
            let elsewhere = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(
                elsewhere.status == .ok && elsewhere.body.contains("<h1>Continue where you asked for the code</h1>"))
            #expect(elsewhere.body.contains(link.code))
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)

            let done = try await submit("code", ["code": .string(link.code)])
            #expect(done.objectValue?["node"]?.objectValue?["type"]?.stringValue == "success", "the code was not used")
        }
    }

    @Test("a wrong code from a link is refused on the step's page and counts against the code's tries like a typed one")
    func wrongCodeCounts() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            _ = try await browser.askForCode(fixture)
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            let wrong = link.code == "000000" ? "111111" : "000000"
            for _ in 0..<EmailCodes.maximumAttempts {
                let refused = try await browser.follow(link.interaction, code: wrong, fixture.client)
                #expect(refused.status == .badRequest && refused.body.contains("<h1>Enter your code</h1>"))
                #expect(refused.alert == "The code is not correct, or no longer works.")
            }
            let spent = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(spent.status == .badRequest, "five wrong tries ended the code")
            #expect(spent.redirect == nil && browser.cookies[BrowserSessions.cookieName] == nil)
        }
    }

    @Test(
        "an unknown interaction or a link without its parts gets a page saying so",
        arguments: [
            ("page.unknown", "123456", "This link no longer works"), ("", "123456", "This link is incomplete"),
            ("page.unknown", "", "This link is incomplete"),
        ])
    func unusableLinks(_ interaction: String, code: String, heading: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.follow(interaction, code: code, fixture.client)
            #expect(page.status == .badRequest && page.body.contains("<h1>\(heading)</h1>"))
        }
    }

    @Test(
        "the link's form without the page's CSRF token or with another's is refused; a planted CSRF cookie unbinds the request: nothing is used"
    )
    func forgedForms() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            _ = try await browser.askForCode(fixture)
            let link = try await MailedLink(lastMailOf: peer, issuer: fixture.issuer)
            let fields = [("interaction", link.interaction), ("code", link.code)]
            let missing = try await browser.send(
                fixture.client, EmailLinkRoutes.submitPath, method: .post, form: fields)
            #expect(missing.status == .forbidden)
            let csrfName = BrowserCookies(issuer: fixture.issuer).csrfName
            let another = Browser(cookies: [csrfName: "another-browser-secret"])
            for token in [
                try #require(fixture.csrfToken(in: another, for: CSRFToken.emailLinkPurpose)),
                try #require(fixture.csrfToken(in: browser, for: CSRFToken.signInPurpose(requestID: "x"))),
            ] {
                let refused = try await browser.follow(link.interaction, code: link.code, csrf: token, fixture.client)
                #expect(refused.status == .forbidden && refused.body.contains("<h1>This form has expired</h1>"))
            }

            // A secret an attacker planted passes the CSRF check with the token shown for it, but the request stays
            // bound to the secret of the browser that started it.
            var planted = browser
            planted.plant(csrfName, "attacker-known-secret")
            let known = try #require(fixture.csrfToken(in: planted, for: CSRFToken.emailLinkPurpose))
            let elsewhere = try await planted.follow(link.interaction, code: link.code, csrf: known, fixture.client)
            #expect(
                elsewhere.status == .ok && elsewhere.body.contains("<h1>Continue where you asked for the code</h1>"))
            #expect(planted.cookies[BrowserSessions.cookieName] == nil)
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)

            let done = try await browser.follow(link.interaction, code: link.code, fixture.client)
            #expect(done.redirect?.query["code"] != nil, "nothing was used before")
        }
    }
}
