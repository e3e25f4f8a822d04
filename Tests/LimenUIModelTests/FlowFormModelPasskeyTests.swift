import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import LimenUIModel
import TestSupport
import Testing

/// The flow sheet's `PASSKEY` buttons against the `limen-server` binary on a random loopback port, answered by a
/// software authenticator (swift-crypto's P-256): the sign-in flow's passkey button, the `passkey-register` flow and
/// the second step's passkey; a ceremony that does not answer, and a form without an authenticator.
@Suite(
    "FlowFormModel's passkey buttons against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
@MainActor
struct FlowFormModelPasskeyTests {
    /// Runs `body` with a server whose user has a passkey in `passkeys`, signed out again on `client`.
    func withRegisteredPasskey(
        _ body: (LimenServerPeer, AuthClient, SoftwarePasskeys, PassThroughTransport) async throws -> Void
    ) async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let transport = PassThroughTransport()
            let client = try FlowFixture.client(server, transport: transport)
            let passkeys = try FlowFixture.passkeys(server)
            try await client.signIn(email: server.user.email, password: server.user.password)
            try await client.registerPasskey(name: "Test key", using: passkeys)
            _ = await client.signOut()
            try await body(server, client, passkeys, transport)
        }
    }

    /// The `passkey` flow started in a form whose passkeys `passkeys` answers, on a client of `server` sending through
    /// the transport returned with it.
    func passkeyForm(_ server: LimenServerPeer, passkeys: (any PasskeyAuthenticator)?) async throws
        -> (FlowFormModel, PassThroughTransport)
    {
        let transport = PassThroughTransport()
        let client = try FlowFixture.client(server, transport: transport)
        let form = FlowFormModel(client: client, flow: "passkey", passkeys: passkeys)
        await form.start()
        return (form, transport)
    }

    /// How many flow submissions `transport` has sent.
    func submissions(_ transport: PassThroughTransport) async -> Int {
        await transport.requests.filter { $0.url.path.contains("/flows/interactions/") }.count
    }

    @Test("sign-in's passkey button leads to a PASSKEY button labelled by the server; pressing it signs in")
    func signInWithPasskey() async throws {
        try await withRegisteredPasskey { server, client, passkeys, _ in
            let form = FlowFormModel(client: client, flow: "sign-in", passkeys: passkeys)
            await form.start()
            await form.press("passkey")
            let element = try #require(form.elements.first { $0.key == "passkey" })
            #expect(element.kind == .passkey(.authenticate) && element.label == "Passkey")
            #expect(element.isAction && element.isEnabled && !element.isFocusable)
            #expect(element.accessibilityHint?.isEmpty == false)

            await form.press("passkey")
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
            #expect(client.state.phase == .signedIn)
        }
    }

    @Test("passkey-register: the step's main button runs the register ceremony and sends the name with it")
    func registerPasskey() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let client = try FlowFixture.client(server)
            let passkeys = try FlowFixture.passkeys(server)
            try await client.signIn(email: server.user.email, password: server.user.password)
            let form = FlowFormModel(client: client, flow: "passkey-register", passkeys: passkeys)
            await form.start()
            #expect(form.elements.first { $0.key == "passkey" }?.kind == .passkey(.register))
            form[text: "name"] = "Laptop"
            await form.submit()
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
            #expect(passkeys.authenticator.credentials.count == 1)

            _ = await client.signOut()
            #expect(try await client.signInWithPasskey(using: passkeys).email == server.user.email)
        }
    }

    @Test("a cancelled ceremony is a typed error on the element; nothing is sent and the step is answered next time")
    func cancelledCeremony() async throws {
        try await withRegisteredPasskey { server, client, passkeys, transport in
            let form = FlowFormModel(client: client, flow: "passkey", passkeys: CancelledOnce(then: passkeys))
            await form.start()
            let sent = await submissions(transport)
            await form.press("passkey")
            #expect(form.passkeyError(for: "passkey") == .cancelled)
            #expect(form.errors(for: "passkey") == ["The passkey request was cancelled."])
            #expect(form.phase == .step && !form.isLoading)
            #expect(await submissions(transport) == sent, "a ceremony that did not answer sends nothing")

            await form.press("passkey")
            #expect(form.passkeyError(for: "passkey") == nil)
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
        }
    }

    @Test("a device without a passkey for the server: the element says so, and the step stays")
    func noCredential() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let (form, _) = try await passkeyForm(server, passkeys: try FlowFixture.passkeys(server))
            await form.press("passkey")
            #expect(form.passkeyError(for: "passkey") == .noCredential)
            #expect(form.phase == .step)
        }
    }

    @Test("without an authenticator the PASSKEY button is disabled and says why; pressing it sends nothing")
    func noAuthenticator() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let (form, transport) = try await passkeyForm(server, passkeys: nil)
            let element = try #require(form.elements.first { $0.key == "passkey" })
            #expect(!element.isEnabled)
            #expect(element.accessibilityHint == "Passkeys are not available in this app.")
            #expect(form.elements.filter { !$0.isEnabled }.map(\.key) == ["passkey"])
            let sent = await submissions(transport)
            await form.press("passkey")
            await form.submit()
            #expect(form.phase == .step && form.passkeyError(for: "passkey") == nil)
            #expect(await submissions(transport) == sent)
        }
    }

    @Test("the second step's passkey: after the password, the mfa step's PASSKEY button finishes the sign-in")
    func secondStepPasskey() async throws {
        try await withRegisteredPasskey { server, client, passkeys, _ in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let enrolment = try await client.enrolTOTP()
            let app = try #require(TestAuthenticatorApp(base32: enrolment.secret))
            _ = try await enrolment.confirm(code: app.code())
            _ = await client.signOut()

            let form = FlowFormModel(client: client, flow: "sign-in", passkeys: passkeys)
            await form.start()
            form[text: "email"] = server.user.email
            form[text: "password"] = server.user.password
            await form.submit()
            #expect(form.elements.first { $0.key == "passkey" }?.kind == .passkey(.authenticate))
            await form.press("passkey")
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
        }
    }
}

/// An authenticator whose person closes the first sheet, then answers with `then`.
private final class CancelledOnce: PasskeyAuthenticator {
    private let cancelled = Locked(false)
    private let then: SoftwarePasskeys

    init(then: SoftwarePasskeys) {
        self.then = then
    }

    func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        try cancelFirst()
        return try await then.register(options)
    }

    func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        try cancelFirst()
        return try await then.authenticate(options)
    }

    private func cancelFirst() throws(PasskeyError) {
        let first = cancelled.withLock { done in
            defer { done = true }
            return !done
        }
        if first { throw .cancelled }
    }
}
