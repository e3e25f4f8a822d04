import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Two-step sign-in on the hosted pages: the sign-in page asks for the second step, passkeys included")
struct SecondFactorPageTests {
    /// Turns two-step sign-in on for the fixture's user, with a passkey too; returns the TOTP their app holds.
    private static func enableTwoStep(in fixture: SignInFixture) async throws -> TOTP {
        let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)
        let passkey = try await fixture.provider.store.insertPasskeyCredential(
            PasskeyCredentialRecord(
                credentialID: Data([9, 9]), userID: fixture.user.id, userHandle: Data([1]), publicKey: Data([0xa0]),
                signCount: 0, isBackupEligible: true, isBackedUp: true, name: "Phone", createdAt: fixture.clock.now))
        #expect(passkey)
        return totp
    }

    @Test("the password leads to the second step's page; a wrong code is refused there; a right one signs in")
    func signInPage() async throws {
        try await withSignIn { fixture in
            let totp = try await Self.enableTwoStep(in: fixture)
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let second = try await browser.signIn(fixture.client, from: form)
            #expect(second.body.contains("<h1>Two-step sign-in</h1>"))
            #expect(second.body.contains("name=\"totp\""))
            #expect(second.body.contains("value=\"submit-totp\""))
            #expect(second.body.contains("data-passkey=\"passkey\""), "her passkey's button, which the script answers")
            #expect(second.body.contains("id=\"passkey\" name=\"passkey\" data-mode=\"authenticate\""))
            #expect(second.headers[.contentSecurityPolicy]?.contains("script-src 'sha256-") == true)
            #expect(!second.body.contains("submit-recovery-code"), "no recovery codes left")
            #expect(second.redirect == nil)

            fixture.clock.advance(by: 30)
            let right = totp.code(at: fixture.clock.now)
            let wrong = try await browser.submit(
                fixture.client, second, to: "/login",
                [("totp", right == "000000" ? "111111" : "000000"), ("action", "submit-totp")])
            #expect(wrong.body.contains("<h1>Two-step sign-in</h1>"))
            #expect(wrong.alert?.contains("not correct") == true)
            #expect(wrong.redirect == nil)
            let done = try await browser.submit(
                fixture.client, wrong, to: "/login", [("totp", right), ("action", "submit-totp")])
            #expect(done.redirect?.base == SignInFixture.cliRedirect, "signed in: back to the client")
            #expect(done.redirect?.query["code"] != nil)
        }
    }

    /// An operator's page with buttons to the setup of two-step sign-in, which only apps run, and to sign-in.
    static let security = """
        id: security
        start: menu
        nodes:
          - id: menu
            name: Security
            collectors:
              - {type: FLOW_BUTTON, key: totp, label: Set up an authenticator app, flow: totp-enrol}
              - {type: FLOW_BUTTON, key: back, label: Sign in, flow: sign-in}
        """

    @Test("a page never moves to a flow only apps run, even when a crafted submission presses a button to it")
    func switchToAppOnlyFlow() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("security-\(UUID().uuidString).yaml")
        try Data(Self.security.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let withSecurity: (inout ServerConfiguration) -> Void = { $0.flowFiles = [file.path] }
        try await withSignIn(configure: withSecurity) { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            let page = try await browser.send(fixture.client, "/login?flow=security&request=\(requestID)")
            #expect(page.body.contains("<h1>Security</h1>"))
            #expect(!page.body.contains("value=\"totp\""), "no button to a flow the page cannot run")
            #expect(page.body.contains("value=\"back\""))
            let crafted = try await browser.submit(
                fixture.client, page, to: "/login", [("flow", "security"), ("action", "totp")])
            #expect(crafted.status == .notFound)
            #expect(!crafted.body.contains("otpauth://"))
            let back = try await browser.submit(
                fixture.client, page, to: "/login", [("flow", "security"), ("action", "back")])
            #expect(back.body.contains("<h1>Sign in</h1>"))
        }
    }
}
