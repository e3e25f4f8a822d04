import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "The hosted pages are the flows' nodes: password reset and email codes by mail, the engine's rules",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct FlowPageTests {
    @Test("password reset from the sign-in page's link: the mailed code and a new password complete the request")
    func passwordReset() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            #expect(signIn.body.contains("href=\"password-reset?request=\(requestID)\""))
            #expect(signIn.body.contains("href=\"email-code?request=\(requestID)\""))
            let reset = try await browser.send(fixture.client, "/password-reset?request=\(requestID)")
            #expect(reset.status == .ok && reset.body.contains("<h1>Reset your password</h1>"))
            let sent = try await browser.submit(
                fixture.client, reset, to: "/password-reset", [("email", SignInFixture.email)])
            #expect(sent.status == .ok && sent.body.contains("<h1>Choose a new password</h1>"))
            #expect(sent.body.contains("autocomplete=\"one-time-code\""))
            #expect(sent.body.contains("<p class=\"hint\" id=\"password-hint\">At least 8 characters.</p>"))
            let code = try await peer.lastCode()
            let newPassword = "a brand new password"
            let wrong = try await browser.submit(
                fixture.client, sent, to: "/password-reset",
                [
                    ("code", code == "000000" ? "111111" : "000000"), ("password", newPassword),
                    ("password-verify", newPassword),
                ])
            #expect(wrong.status == .badRequest)
            #expect(wrong.body.contains("aria-describedby=\"code-error form-error\""), "the field points at its error")
            #expect(wrong.body.contains("<p class=\"field-error\" id=\"code-error\">"))
            let done = try await browser.submit(
                fixture.client, wrong, to: "/password-reset",
                [("code", code), ("password", newPassword), ("password-verify", newPassword)])
            #expect(done.redirect?.query["code"] != nil, "the first-party request completes at once")
            #expect(browser.cookies[BrowserSessions.cookieName] != nil, "a browser session started")

            var other = Browser()
            let form = try await other.send(fixture.client, SignInFixture.authorizeURI())
            #expect(try await other.signIn(fixture.client, from: form, password: newPassword).redirect != nil)
        }
    }

    @Test("the email-code page: the mailed code signs in, proves the address, and continues the request")
    func emailCode() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            let requestID = try #require(signIn.hiddenField("request"))
            let page = try await browser.send(fixture.client, "/email-code?request=\(requestID)")
            #expect(page.body.contains("<h1>Sign in with a code</h1>"))
            let sent = try await browser.submit(
                fixture.client, page, to: "/email-code", [("email", SignInFixture.email)])
            #expect(sent.body.contains("<h1>Enter your code</h1>"))
            let again = try await browser.submit(fixture.client, sent, to: "/email-code", [("action", "resend")])
            #expect(again.body.contains("<h1>Sign in with a code</h1>"), "Send another code goes back a step")
            let resent = try await browser.submit(
                fixture.client, again, to: "/email-code", [("email", SignInFixture.email)])
            let consent = try await browser.submit(
                fixture.client, resent, to: "/email-code", [("code", try await peer.lastCode())])
            #expect(consent.body.contains("<h1>Allow access?</h1>"), "a third-party client's consent page follows")
            #expect(try await fixture.provider.store.user(email: SignInFixture.email)?.emailVerified == true)
        }
    }

    @Test("a page's interaction cannot be continued through /flows/interactions, even knowing its request")
    func pageInteractionIsNotNative() async throws {
        try await withMailedSignIn { fixture, _ in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            let reset = try await browser.send(fixture.client, "/password-reset?request=\(requestID)")
            _ = try await browser.submit(fixture.client, reset, to: "/password-reset", [("email", SignInFixture.email)])
            let body = #"{"node": "code", "action": "resend"}"#
            let response = try await fixture.client.executeRequest(
                uri: "/flows/interactions/page.\(requestID)", method: .post,
                headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains("unknown_interaction"))
        }
    }
}

@Suite("The hosted pages and the native flows share one lockout and one set of rules")
struct FlowPageRuleTests {
    @Test("five wrong passwords on the page lock the native flow's sign-in of the same email from the same address")
    func lockoutShared() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            for _ in 0..<SignInLockout().threshold {
                #expect(try await browser.signIn(fixture.client, from: form, password: "wrong").status == .badRequest)
            }
            let start = try await fixture.client.executeRequest(
                uri: "/flows/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(
                    string: FormEncoding.encode([
                        ("client_id", "limen-cli"), ("redirect_uri", SignInFixture.cliRedirect), ("scope", "openid"),
                        ("code_challenge", SignInFixture.challenge), ("code_challenge_method", "S256"),
                    ])))
            let started = try JSONValue(parsing: Data(start.body.readableBytesView))
            guard case .object(let members) = started, let id = members["interaction"]?.stringValue else {
                Issue.record("no interaction in \(started)")
                return
            }
            let submission = JSONValue.object([
                "node": .string("credentials"), "action": .string("submit"),
                "values": .object([
                    "email": .string(SignInFixture.email), "password": .string(SignInFixture.password),
                ]),
            ])
            let locked = try await fixture.client.executeRequest(
                uri: "/flows/interactions/\(id)", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: submission.serialized()))
            #expect(locked.status == .tooManyRequests, "one counter for the page and the flow")
            #expect(locked.headers[.retryAfter] != nil)
        }
    }

    @Test(
        "an operator's required checkbox on sign-up: shown with its label, refused unticked on the same page, then accepted"
    )
    func operatorCheckbox() async throws {
        let file = try FlowPageFixtures.signUpWithTermsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let useFile: (inout ServerConfiguration) -> Void = { $0.flowFiles = [file] }
        try await withSignIn(configure: useFile) { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let signUp = try await browser.send(
                fixture.client, "/signup?request=\(try #require(signIn.hiddenField("request")))")
            #expect(signUp.body.contains(#"<input id="terms" name="terms" type="checkbox" value="true" required>"#))
            #expect(signUp.body.contains(#"<label for="terms">I accept the terms</label>"#))
            let fields = [("email", "terms@example.com")]
            let refused = try await browser.submit(fixture.client, signUp, to: "/signup", fields)
            #expect(refused.status == .badRequest)
            #expect(refused.body.contains("<h1>Create your account</h1>"), "the same page")
            #expect(refused.body.contains(#"aria-invalid="true" aria-describedby="terms-error form-error""#))
            #expect(refused.body.contains("I accept the terms is required."))
            #expect(refused.body.contains(#"value="terms@example.com""#), "what was typed is kept")
            let accepted = try await browser.submit(
                fixture.client, refused, to: "/signup", fields + [("terms", "true")])
            #expect(accepted.status == .ok && accepted.body.contains("<h1>Confirm your email address</h1>"))
            #expect(try await fixture.provider.store.user(email: "terms@example.com") == nil, "not before the code")
        }
    }
}

extension FlowPageRuleTests {
    @Test(
        "an operator's own flow is a page at /login?flow=NAME whose form keeps the flow and takes several choices; an unknown flow is 404"
    )
    func operatorFlowPage() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("welcome-\(UUID().uuidString).yaml")
        try Data(FlowPageFixtures.welcome.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let useFile: (inout ServerConfiguration) -> Void = { $0.flowFiles = [file.path] }
        try await withSignIn(configure: useFile) { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            let page = try await browser.send(fixture.client, "/login?flow=welcome&request=\(requestID)")
            #expect(page.status == .ok && page.body.contains("<h1>Welcome back</h1>"))
            #expect(page.hiddenField("flow") == "welcome")
            let unknown = try await browser.send(fixture.client, "/login?flow=nope&request=\(requestID)")
            #expect(unknown.status == .notFound)
            #expect(page.body.contains(#"<select id="plan" name="plan" required"#))
            #expect(page.body.contains(#"<select id="topics" name="topics" multiple>"#))
            let refused = try await browser.submit(
                fixture.client, page, to: "/login",
                [("flow", "welcome"), ("plan", "gold"), ("email", SignInFixture.email), ("password", "wrong")])
            #expect(refused.status == .badRequest && refused.body.contains("<h1>Welcome back</h1>"))
            #expect(refused.body.contains(#"<option value="gold" selected>Gold</option>"#), "the choice is kept")
            let done = try await browser.submit(
                fixture.client, refused, to: "/login",
                [
                    ("flow", "welcome"), ("plan", "gold"), ("topics", "news"), ("topics", "tips"),
                    ("email", SignInFixture.email), ("password", SignInFixture.password),
                ])
            #expect(done.redirect?.query["code"] != nil)
        }
    }
}

/// Flow definitions the page tests load as an operator's files.
enum FlowPageFixtures {
    /// Writes ``signUpWithTerms`` to a new file in the temporary directory and returns its path.
    static func signUpWithTermsFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sign-up-\(UUID().uuidString).yaml")
        try Data(signUpWithTerms.utf8).write(to: path)
        return path.path
    }

    /// An operator's own sign-in flow with a menu.
    static let welcome = """
        id: welcome
        start: hello
        nodes:
          - id: hello
            name: Welcome back
            collectors:
              - {type: DROPDOWN, key: plan, label: Plan, required: true, options: [{label: Gold, value: gold}]}
              - {type: COMBOBOX, key: topics, label: Topics, options: [{label: News, value: news}, {label: Tips, value: tips}]}
              - {type: TEXT, key: email, label: Email address, required: true}
              - {type: PASSWORD, key: password, label: Password, required: true}
              - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_password, complete]}
        """

    /// The built-in sign-up with a required "accept the terms" checkbox before its first step's button.
    static let signUpWithTerms: String = {
        let definition = BuiltInFlows.signUp
        guard let button = definition.range(of: "      - {type: SUBMIT_BUTTON") else { return definition }
        return definition.replacingCharacters(
            in: button.lowerBound..<button.lowerBound,
            with: "      - {type: CHECKBOX, key: terms, label: I accept the terms, required: true}\n")
    }()
}
