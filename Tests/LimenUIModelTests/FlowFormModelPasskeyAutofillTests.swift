import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import LimenUIModel
import TestSupport
import Testing

/// The sign-in step's passkey autofill (its conditional `PASSKEY`) and its "Sign in with a passkey" link in the flow
/// sheet, against the `limen-server` binary on a random loopback port, answered by a software authenticator.
@Suite(
    "FlowFormModel's passkey autofill and passkey link against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
@MainActor
struct FlowFormModelPasskeyAutofillTests {
    /// The sign-in flow started in a form whose passkeys `passkeys` answers, on a client of `server` sending through
    /// `transport`.
    func signInForm(
        _ server: LimenServerPeer, passkeys: (any PasskeyAuthenticator)?, transport: PassThroughTransport
    ) async throws -> FlowFormModel {
        let client = try FlowFixture.client(server, transport: transport)
        let form = FlowFormModel(client: client, flow: "sign-in", passkeys: passkeys)
        await form.start()
        return form
    }

    /// How many flow submissions `transport` has sent.
    func submissions(_ transport: PassThroughTransport) async -> Int {
        await transport.requests.filter { $0.url.path.contains("/flows/interactions/") }.count
    }

    @Test("the sign-in step offers autofill without showing it; a passkey picked signs in without email or password")
    func autofillSignsIn() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let passkeys = try FlowFixture.passkeys(server)
            let setup = try FlowFixture.client(server, transport: PassThroughTransport())
            try await setup.signIn(email: server.user.email, password: server.user.password)
            try await setup.registerPasskey(name: "Test key", using: passkeys)
            _ = await setup.signOut()

            let form = try await signInForm(server, passkeys: passkeys, transport: PassThroughTransport())
            #expect(form.offersPasskeyAutofill)
            #expect(form.elements.map(\.key) == FlowFixture.signInKeys, "the autofill and its button are not drawn")
            await form.answerPasskeyAutofill(using: passkeys)
            #expect(FlowFixture.user(of: form)?.email == server.user.email)
        }
    }

    @Test("an autofill request that ends without a passkey sends nothing and leaves the step as it was")
    func autofillCancelled() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let transport = PassThroughTransport()
            let form = try await signInForm(server, passkeys: nil, transport: transport)
            form[text: "email"] = server.user.email
            let sent = await submissions(transport)
            await form.answerPasskeyAutofill(using: NoPasskey())
            #expect(await submissions(transport) == sent)
            #expect(form.phase == .step && form.offersPasskeyAutofill)
            #expect(form[text: "email"] == server.user.email)
        }
    }

    @Test("without an authenticator the \"Sign in with a passkey\" link is disabled, says why, and sends nothing")
    func passkeyLinkWithoutAuthenticator() async throws {
        try await LimenServerPeer.with(settings: FlowFormModelServerTests.settings) { server in
            let transport = PassThroughTransport()
            let form = try await signInForm(server, passkeys: nil, transport: transport)
            let link = try #require(form.elements.first { $0.key == "passkey" })
            #expect(link.kind == .flow(isLink: false))
            #expect(!link.isEnabled)
            #expect(link.accessibilityHint == "Passkeys are not available in this app.")
            #expect(form.elements.filter { !$0.isEnabled }.map(\.key) == ["passkey"], "the other links stay enabled")
            let (title, sent) = (form.title, await submissions(transport))
            await form.press("passkey")
            #expect(await submissions(transport) == sent)
            #expect(form.title == title && form.phase == .step)

            let offered = try await signInForm(
                server, passkeys: try FlowFixture.passkeys(server), transport: PassThroughTransport())
            let allEnabled = offered.elements.allSatisfy(\.isEnabled)
            #expect(allEnabled, "with an authenticator the link is enabled")
        }
    }
}

/// An authenticator whose request ends without a passkey (the person signed in another way).
private struct NoPasskey: PasskeyAuthenticator {
    func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        throw .cancelled
    }

    func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        throw .cancelled
    }
}
