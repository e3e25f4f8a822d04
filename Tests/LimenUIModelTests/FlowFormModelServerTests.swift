import Foundation
import Limen
import LimenUIModel
import TestSupport
import Testing

/// The native flow sheet's model driven as the sheet drives it, against the `limen-server` binary on a random loopback
/// port: its built-in `sign-in`, `sign-up` and `email-code` flows, step by step.
@Suite(
    "FlowFormModel against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
@MainActor
struct FlowFormModelServerTests {
    /// A sign-in rate limit above what one test sends in a second.
    static let settings = ["--sign-in-rate-limit", "100/s"]

    /// Runs `body` with Limen Server mailing its codes and links to an SMTP sink, and the sink.
    func withMailingServer(_ body: (LimenServerPeer, SMTPSink) async throws -> Void) async throws {
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(settings: Self.settings + ["--mail-url", sink.mailURL]) { server in
                try await body(server, sink)
            }
        }
    }

    @Test("sign-in: the step's elements, labels and focus order; a wrong password keeps the values and says so")
    func signInStep() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let form = FlowFormModel(client: try FlowFixture.client(server), flow: "sign-in")
            #expect(form.phase == .idle)
            await form.start()
            #expect(form.phase == .step && !form.isLoading)
            #expect(form.elements.map(\.key) == FlowFixture.signInKeys)
            #expect(form.focusOrder == ["email", "password"])
            #expect(form.focusedKey == "email", "the first empty field has the keyboard")
            let email = try #require(form.elements.first { $0.key == "email" })
            #expect(email.kind == .text(isEmailAddress: true) && email.textContent == .emailAddress)
            #expect(form.elements.first { $0.key == "password" }?.textContent == nil, "not a text field")
            #expect(email.accessibilityLabel == "\(email.label), required")
            #expect(form.elements.first { $0.key == "password" }?.kind == .password(isNew: false))
            #expect(form.elements.first { $0.key == "submit" }?.accessibilityHint == "Sends this step.")
            #expect(form.elements.first { $0.key == "create-account" }?.kind == .flow(isLink: true))
            #expect(form.elements.allSatisfy { !$0.accessibilityLabel.isEmpty }, "every control is labelled")

            form[text: "email"] = server.user.email
            form[text: "password"] = "wrong password"
            await form.submit()
            #expect(form.phase == .step)
            #expect(form.message?.isEmpty == false, "the server's sentence is shown")
            #expect(form[text: "email"] == server.user.email, "the values sent are kept")
            form[text: "password"] = server.user.password
            await form.submit()
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
            #expect(form.client.state.phase == .signedIn)
        }
    }

    @Test("phone-code: the number offers the phone keyboard, the code the one-time-code autofill")
    func phoneCodeStep() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let form = FlowFormModel(client: try FlowFixture.client(server), flow: "phone-code")
            await form.start()
            #expect(form.elements.first { $0.key == "phone" }?.textContent == .phoneNumber)
            form[text: "phone"] = "+1 555 010 0177"
            await form.submit()
            #expect(form.elements.first { $0.key == "code" }?.textContent == .oneTimeCode)
        }
    }

    @Test("a step the device refuses is not sent: each field says what is wrong and the focus moves to the first")
    func refusedOnTheDevice() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let transport = PassThroughTransport()
            let form = FlowFormModel(client: try FlowFixture.client(server, transport: transport), flow: "sign-in")
            await form.start()
            let sent = await transport.requests.count
            #expect(form.errors(for: "email").isEmpty, "nothing is said before a submission")
            form[text: "password"] = "anything"
            form.focusedKey = "password"
            await form.submit()
            #expect(await transport.requests.count == sent, "nothing was sent")
            #expect(form.errors(for: "email").count == 1)
            #expect(form.errors(for: "email").first?.hasSuffix("This field is required.") == true)
            #expect(form.errors(for: "password").isEmpty)
            #expect(form.focusedKey == "email")
            #expect(form.accessibilityValue(for: "email") == form.errors(for: "email").first)
            form[text: "email"] = server.user.email
            #expect(form.errors(for: "email").isEmpty, "the checks are live once shown")
        }
    }

    @Test("the focus order moves from field to field, and the return key on the last one sends the step")
    func focusOrder() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let form = FlowFormModel(client: try FlowFixture.client(server), flow: "sign-in")
            await form.start()
            #expect(form.focusAfter("email") == "password")
            #expect(form.focusAfter("password") == nil)
            form[text: "email"] = server.user.email
            await form.advance()
            #expect(form.focusedKey == "password")
            form[text: "password"] = server.user.password
            await form.advance()
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
        }
    }

    @Test("a flow link moves to its step without the device's checks; an unknown flow ends the form with its code")
    func linksAndFailures() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let client = try FlowFixture.client(server)
            let form = FlowFormModel(client: client, flow: "sign-in")
            await form.start()
            await form.press("create-account")
            #expect(form.phase == .step)
            #expect(form.elements.contains { $0.key == "email" } && !form.elements.contains { $0.key == "password" })

            let unknown = FlowFormModel(client: client, flow: "no-such-flow")
            await unknown.start()
            guard case .failed(let cause) = unknown.phase else {
                Issue.record("an unknown flow did not fail: \(unknown.phase)")
                return
            }
            #expect(cause.code == "unknown_flow")
            #expect(unknown.elements.isEmpty)
        }
    }

    @Test(
        "sign-up: the password policy as live hints, met as the person types; the server's per-field messages",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func passwordPolicy() async throws {
        try await withMailingServer { server, _ in
            let form = FlowFormModel(client: try FlowFixture.client(server), flow: "sign-up")
            await form.start()
            form[text: "email"] = "grace@example.com"
            await form.submit()
            #expect(form.elements.first { $0.key == "password" }?.kind == .password(isNew: true))
            #expect(form.elements.first { $0.key == "password-verify" }?.kind == .password(isNew: true))
            #expect(form.passwordHints(for: "password-verify").isEmpty, "the repetition has no hints of its own")
            form[text: "password"] = "short"
            let hints = form.passwordHints(for: "password")
            #expect(hints.first?.id == "invalid_length" && hints.first?.isMet == false)
            #expect(form.accessibilityValue(for: "password")?.hasPrefix("Still needed: ") == true)
            form[text: "password"] = "a long enough password"
            #expect(form.passwordHints(for: "password").allSatisfy { $0.isMet })
            #expect(form.accessibilityValue(for: "password") == nil)

            form[text: "code"] = "000000"
            form[text: "password"] = "short"
            form[text: "password-verify"] = "short"
            let submit = try #require(form.elements.first { $0.kind == .submit })
            await form.press(submit.key)
            #expect(form.phase == .step, "the device refused the short password")
            #expect(form.errors(for: "password").contains(try #require(hints.first).text))
        }
    }

    @Test(
        "the email's link continues the sheet's code step and signs in",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func emailLink() async throws {
        try await withMailingServer { server, sink in
            let form = FlowFormModel(client: try FlowFixture.client(server), flow: "email-code")
            await form.start()
            form[text: "email"] = server.user.email
            await form.submit()
            #expect(form.focusOrder.contains("code"))
            #expect(await form.handle(url: try #require(URL(string: "https://example.com/other"))) == false)
            #expect(await form.handle(url: try await sink.nextLink()))
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
            #expect(form.client.state.phase == .signedIn)
        }
    }

    @Test("an identity provider's button without a web session says so on that button; a closed session too")
    func identityProvider() async throws {
        try await TestHTTPServer.withUpstreamProvider { upstream in
            let configuration = """
                identity_providers:
                  - id: partner
                    display_name: Partner
                    issuer: \(upstream.absoluteString)
                    client_id: limen
                    client_secret: secret
                """
            try await LimenServerPeer.with(configuration: configuration, settings: Self.settings) { server in
                let form = FlowFormModel(client: try FlowFixture.client(server), flow: "sign-in")
                await form.start()
                let idp = try #require(form.elements.first { $0.kind == .identityProvider(provider: "partner") })
                #expect(idp.accessibilityHint == "Opens the provider's sign-in page.")
                await form.press(idp.key)
                #expect(form.phase == .step)
                #expect(form.errors(for: idp.key).count == 1, "the message is on the button that needs the session")
                await form.press(idp.key, using: ClosingWebSession())
                #expect(form.phase == .step)
                #expect(
                    form.errors(for: idp.key).first?.hasPrefix(UserAgentError.cancelled.localizedDescription) == true)
            }
        }
    }
}

/// A web session the person closes at once.
private struct ClosingWebSession: UserAgent {
    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        throw .cancelled
    }
}
