import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The conveniences' second step against Limen Server (the `limen-server` binary on a random loopback port): a
/// sign-in of an account with two-step sign-in on throws ``FlowError/secondStepRequired(_:)``, whose ``SecondStep``
/// finishes it with a TOTP code computed as an authenticator app does, a recovery code, or a passkey.
@Suite(
    "The second step of the sign-in conveniences against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerSecondStepTests {
    /// The second step `client`'s password sign-in of `server`'s user stopped at.
    func secondStep(_ client: AuthClient, _ server: LimenServerPeer) async throws -> SecondStep {
        do throws(FlowError) {
            try await client.signIn(email: server.user.email, password: server.user.password)
        } catch .secondStepRequired(let step) {
            return step
        }
        throw TwoStepTestFailure("the password alone signed in")
    }

    @Test("the password sign-in stops at the second step; a wrong code is refused, the same step takes the right one")
    func totp() async throws {
        try await LimenServerPeer.with(settings: LimenServerTwoStepTests.settings) { server in
            let (_, app, _) = try await LimenServerTwoStepTests().enabledTwoStep(server)
            let client = try server.cliClient()
            let events = client.eventStream()
            let step = try await secondStep(client, server)
            #expect(step.methods == [.totp, .recoveryCode])
            #expect(client.state.phase != .signedIn)

            await #expect(throws: LimenError.account(.invalidCode)) {
                try await step.answer(totp: app.code(steps: 10))
            }
            #expect(client.state.phase != .signedIn)
            // The setup used the current step's code: the app's next one.
            let user = try await step.answer(totp: app.code(steps: 1))
            #expect(user.email == server.user.email)
            #expect(client.state.phase == .signedIn)
            #expect(client.state.user.email == server.user.email, "the session is stored")
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .signInStarted(method: .flow))
            #expect(await iterator.next() == .signInCompleted(method: .flow, userType: .existing))

            await #expect(throws: LimenError.self, "the step is over once answered") {
                try await step.answer(totp: app.code(steps: 1))
            }
        }
    }

    @Test("a recovery code finishes the second step once; a used one is refused and another then answers")
    func recoveryCode() async throws {
        try await LimenServerPeer.with(settings: LimenServerTwoStepTests.settings) { server in
            let (_, _, codes) = try await LimenServerTwoStepTests().enabledTwoStep(server)
            let first = try server.cliClient()
            #expect(try await secondStep(first, server).answer(recoveryCode: codes[0]).email == server.user.email)
            #expect(first.state.phase == .signedIn)

            let second = try server.cliClient()
            let step = try await secondStep(second, server)
            await #expect(throws: LimenError.account(.invalidCode)) { try await step.answer(recoveryCode: codes[0]) }
            try await step.answer(recoveryCode: codes[1])
            #expect(second.state.phase == .signedIn)
        }
    }

    @Test("five wrong codes lock the account: the step then refuses the right code, saying how long to wait")
    func lockout() async throws {
        try await LimenServerPeer.with(settings: LimenServerTwoStepTests.settings) { server in
            let (_, app, _) = try await LimenServerTwoStepTests().enabledTwoStep(server)
            let client = try server.cliClient()
            let step = try await secondStep(client, server)
            for _ in 0..<5 {
                await #expect(throws: LimenError.account(.invalidCode)) {
                    try await step.answer(totp: app.code(steps: 10))
                }
            }
            let locked = await #expect(throws: LimenError.self) { try await step.answer(totp: app.code(steps: 1)) }
            guard case .account(.tooManyAttempts(let retryAfter))? = locked else {
                Issue.record("the right code while locked: \(String(describing: locked))")
                return
            }
            #expect((retryAfter ?? 0) > 0)
            #expect(client.state.phase != .signedIn)
        }
    }

    @Test("a passkey of the account answers the second step; a cancelled sheet leaves it answerable")
    func passkey() async throws {
        try await LimenServerPeer.with(settings: LimenServerTwoStepTests.settings) { server in
            let issuer = server.issuer
            let origin = "\(try #require(issuer.scheme))://\(try #require(issuer.host())):\(try #require(issuer.port))"
            let passkeys = SoftwarePasskeys(SoftwareAuthenticator(origin: origin))
            let owner = try server.cliClient()
            try await owner.signIn(email: server.user.email, password: server.user.password)
            try await owner.registerPasskey(name: "Test key", using: passkeys)
            let enrolment = try await owner.enrolTOTP()
            let app = try #require(TestAuthenticatorApp(base32: enrolment.secret))
            _ = try await enrolment.confirm(code: app.code())

            let client = try server.cliClient()
            let step = try await secondStep(client, server)
            #expect(step.methods == [.totp, .passkey, .recoveryCode])
            await #expect(throws: LimenError.flow(.passkey(.cancelled))) {
                try await step.answerPasskey(using: ClosedSheet())
            }
            let user = try await step.answerPasskey(using: passkeys)
            #expect(user.email == server.user.email)
            #expect(client.state.phase == .signedIn)

            let other = try await secondStep(try server.cliClient(), server)
            let stranger = SoftwarePasskeys(SoftwareAuthenticator(origin: origin))
            await #expect(throws: LimenError.flow(.passkey(.noCredential)), "no passkey of this account") {
                try await other.answerPasskey(using: stranger)
            }
        }
    }

    @Test(
        "signIn(email:code:) stops at the second step too, which a TOTP code finishes",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func emailCode() async throws {
        try await SMTPSink.with { sink in
            let settings = LimenServerTwoStepTests.settings + ["--mail-url", sink.mailURL]
            try await LimenServerPeer.with(settings: settings) { server in
                let (_, app, _) = try await LimenServerTwoStepTests().enabledTwoStep(server)
                let client = try server.cliClient()
                try await client.requestEmailCode(email: server.user.email)
                let code = try await sink.nextCode()
                do throws(FlowError) {
                    try await client.signIn(email: server.user.email, code: code)
                    Issue.record("the email code alone signed in")
                } catch .secondStepRequired(let step) {
                    #expect(try await step.answer(totp: app.code(steps: 1)).email == server.user.email)
                    #expect(client.state.phase == .signedIn)
                }
            }
        }
    }
}

/// An authenticator whose person always closes the sheet.
private struct ClosedSheet: PasskeyAuthenticator {
    func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue { throw .cancelled }
    func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue { throw .cancelled }
}
