import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// Native flows against Limen Server: the `limen-server` binary on a random loopback port, its built-in `sign-in`
/// and `sign-up` flows driven through `startFlow` and `next`, and their codes redeemed at `/token`.
@Suite(
    "Native flows against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerFlowTests {
    /// A sign-in rate limit above what one test sends in a second (the default allows bursts of 3).
    static let settings = ["--sign-in-rate-limit", "100/s"]

    /// `AuthClient` for the seeded first-party native client `limen-cli` and its registered loopback redirect.
    func client(_ server: LimenServerPeer, store: MemoryStore, transport: (any HTTPTransport)? = nil) throws
        -> AuthClient
    {
        AuthClient(
            configuration: Configuration(
                issuer: server.issuer, clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: store, transport: transport))
    }

    func fill(_ node: ContinueNode, _ values: [String: String]) {
        for collector in node.collectors {
            guard let value = values[collector.key] else { continue }
            (collector as? TextCollector)?.value = value
            (collector as? PasswordCollector)?.value = value
        }
    }

    @Test("sign-in: a wrong password is an error node on the same step; the right one a stored session and events")
    func signIn() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let store = MemoryStore()
            let client = try client(server, store: store)
            let events = client.eventStream()
            guard case .continue(let step) = await client.startFlow("sign-in") else {
                Issue.record("the sign-in flow did not start")
                return
            }
            #expect(step.id == "credentials")
            #expect(
                step.collectors.map(\.key) == [
                    "email", "password", "submit", "forgot-password", "create-account", "email-code",
                    "phone-code", "passkey", "passkey-autofill", "submit-passkey",
                ])
            fill(step, ["email": server.user.email, "password": "wrong password"])
            guard case .error(let error) = await step.next() else {
                Issue.record("a wrong password is no error node")
                return
            }
            #expect(error.id == "credentials")
            #expect(client.state.phase != .signedIn)
            (error.collectors[1] as? PasswordCollector)?.value = server.user.password
            guard case .success(let success) = await error.next() else {
                Issue.record("the right password did not sign in")
                return
            }
            #expect(success.user.email == server.user.email)
            #expect(client.state.phase == .signedIn)
            #expect(try await client.validAccessToken() != nil)
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .signInStarted(method: .flow))
            #expect(await iterator.next() == .signInCompleted(method: .flow, userType: .existing))

            let restored = try self.client(server, store: store)
            await restored.restore()
            #expect(restored.state.user.email == server.user.email, "the session was stored as after a browser sign-in")
        }
    }

    @Test(
        "sign-up: the policy is checked on the device as on the server; register() with the mailed code creates the user",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func signUp() async throws {
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(settings: Self.settings + ["--mail-url", sink.mailURL]) { server in
                let client = try client(server, store: MemoryStore())
                let events = client.eventStream()
                guard case .continue(let first) = await client.startFlow("sign-up") else {
                    Issue.record("the sign-up flow did not start")
                    return
                }
                fill(first, ["email": "grace@example.com"])
                guard case .continue(let step) = await first.next() else {
                    Issue.record("no code step")
                    return
                }
                _ = try await sink.nextCode()  // this interaction's code, left unused
                fill(step, ["code": "123456", "password": "short", "password-verify": "other"])
                let device = step.validate()
                guard case .error(let error) = await step.next() else {
                    Issue.record("a short password is no error node")
                    return
                }
                let refused = Dictionary(grouping: error.details, by: \.key).mapValues { $0.map(\.code) }
                #expect(device.mapValues { $0.map(\.code) } == refused, "the device refuses what the server refuses")

                try await client.register(email: "grace@example.com")
                let code = try await sink.nextCode()
                let user = try await client.register(
                    email: "grace@example.com", code: code, password: "a long enough password")
                #expect(user.email == "grace@example.com")
                #expect(client.state.phase == .signedIn)
                var iterator = events.makeAsyncIterator()
                #expect(await iterator.next() == .signInStarted(method: .flow))
                #expect(await iterator.next() == .signInCompleted(method: .flow, userType: .new), "new_user: true")
            }
        }
    }

    @Test("signIn(email:password:): a wrong password throws refused, the right one signs in; the link moves flows")
    func conveniences() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let client = try client(server, store: MemoryStore())
            do throws(FlowError) {
                try await client.signIn(email: server.user.email, password: "wrong password")
                Issue.record("a wrong password signed in")
            } catch .refused(let message, _) {
                #expect(!message.isEmpty)
            } catch {
                Issue.record("not refused: \(error)")
            }
            let user = try await client.signIn(email: server.user.email, password: server.user.password)
            #expect(user.email == server.user.email)

            guard case .continue(let step) = await client.startFlow("sign-in"),
                case .continue(let signUp) = await step.next(action: "create-account")
            else {
                Issue.record("the create-account link did not lead to sign-up")
                return
            }
            #expect(signUp.id == "details")
        }
    }

    @Test(
        "email codes: requestEmailCode then signIn(email:code:), the email's link through handle(url:), a reset",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func emailCodes() async throws {
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(settings: Self.settings + ["--mail-url", sink.mailURL]) { server in
                let client = try client(server, store: MemoryStore())
                let email = server.user.email
                try await client.requestEmailCode(email: email)
                let code = try await sink.nextCode()
                do throws(FlowError) {
                    try await client.signIn(email: email, code: code == "000000" ? "111111" : "000000")
                    Issue.record("a wrong code signed in")
                } catch {
                    #expect(error.code == "flow.refused.invalid_code")
                }
                #expect(try await client.signIn(email: email, code: code).email == email)

                let linked = try self.client(server, store: MemoryStore())
                guard case .continue(let first) = await linked.startFlow("email-code") else {
                    Issue.record("the email-code flow did not start")
                    return
                }
                fill(first, ["email": email])
                guard case .continue(let codeStep) = await first.next() else {
                    Issue.record("no code step")
                    return
                }
                #expect(codeStep.id == "code")
                let link = try await sink.nextLink()
                #expect(link.absoluteString.hasPrefix(server.issuer.absoluteString + "/flows/link#limen_interaction="))
                #expect(link.query == nil, "the secret is never in the query")
                guard case .success(let success)? = await linked.handle(url: link) else {
                    Issue.record("the link did not sign in")
                    return
                }
                #expect(success.userType == .existing)
                #expect(await linked.handle(url: link) == nil, "the interaction is over: the link is ignored")

                let newPassword = "a brand new password"
                try await client.resetPassword(email: email)
                let resetCode = try await sink.nextCode()
                try await client.resetPassword(email: email, code: resetCode, newPassword: newPassword)
                #expect(try await client.signIn(email: email, password: newPassword).email == email)
            }
        }
    }

    @Test("the server gone mid-flow: next() is a failure node with the network cause, and no session")
    func serverGone() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let client = try client(server, store: MemoryStore(), transport: URLSessionTransport(timeout: 5))
            guard case .continue(let step) = await client.startFlow("sign-in") else {
                Issue.record("the sign-in flow did not start")
                return
            }
            fill(step, ["email": server.user.email, "password": server.user.password])
            await server.stop()
            guard case .failure(let failure) = await step.next(), case .network = failure.cause else {
                Issue.record("no network failure")
                return
            }
            #expect(failure.cause.isRetryable)
            #expect(client.state.phase != .signedIn)
        }
    }
}
