import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// Two-step sign-in against Limen Server (the `limen-server` binary on a random loopback port): set up through
/// ``AuthClient/enrolTOTP()`` with codes computed as an authenticator app does, asked for after the password in a
/// flow sign-in, and turned off through the bearer API.
@Suite(
    "Two-step sign-in against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerTwoStepTests {
    /// A sign-in rate limit above what one test sends in a second (the default allows bursts of 3).
    static let settings = ["--sign-in-rate-limit", "100/s"]

    /// Signs the server's user in with their password and turns two-step sign-in on: the app holding the secret and
    /// the recovery codes.
    func enabledTwoStep(_ server: LimenServerPeer) async throws -> (AuthClient, TestAuthenticatorApp, [String]) {
        let client = try server.cliClient()
        try await client.signIn(email: server.user.email, password: server.user.password)
        let enrolment = try await client.enrolTOTP()
        let app = try #require(TestAuthenticatorApp(base32: enrolment.secret))
        return (client, app, try await enrolment.confirm(code: app.code()))
    }

    /// A flow sign-in with the user's password on a client of its own, stopped at the step after the password.
    func passwordStep(_ server: LimenServerPeer) async throws -> ContinueNode {
        guard case .continue(let next) = try await server.cliClient().startFlow("sign-in").signingIn(server) else {
            throw TwoStepTestFailure("the password did not lead to another step")
        }
        return next
    }

    /// Answers the second step `step` with `value` in its field `key` (`totp` or `recovery_code`).
    func answer(_ step: ContinueNode, _ key: String, _ value: String) async -> Node {
        (step.collectors.first { $0.key == key } as? TextCollector)?.value = value
        return await step.next(action: key == "totp" ? "submit-totp" : "submit-recovery-code")
    }

    @Test("enrolTOTP: a wrong code changes nothing and the same enrolment takes the right one; ten codes; then on")
    func enrolment() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let client = try server.cliClient()
            await #expect(throws: LimenError.notSignedIn) { _ = try await client.enrolTOTP() }
            try await client.signIn(email: server.user.email, password: server.user.password)
            #expect(try await client.twoStepStatus() == .disabled)

            let enrolment = try await client.enrolTOTP()
            #expect(enrolment.uri.scheme == "otpauth" && enrolment.uri.host == "totp")
            #expect(enrolment.uri.absoluteString.contains("secret=\(enrolment.secret)"))
            let app = try #require(TestAuthenticatorApp(base32: enrolment.secret))
            await #expect(throws: LimenError.account(.invalidCode)) {
                _ = try await enrolment.confirm(code: app.code(steps: 10))
            }
            #expect(try await client.twoStepStatus() == .disabled, "a wrong code turns nothing on")

            let codes = try await enrolment.confirm(code: app.code())
            #expect(codes.count == 10 && Set(codes).count == 10)
            guard case .enabled(let since, let left) = try await client.twoStepStatus() else {
                Issue.record("two-step sign-in is not on")
                return
            }
            #expect(left == 10)
            #expect(abs(since.timeIntervalSinceNow) < 600)
            #expect(client.state.phase == .signedIn, "the session goes on")
            await #expect(throws: LimenError.account(.twoStepAlreadyEnabled)) { _ = try await client.enrolTOTP() }
        }
    }

    @Test("five wrong codes lock the account: the enrolment then refuses even the right code, saying how long to wait")
    func enrolmentLockout() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let client = try server.cliClient()
            try await client.signIn(email: server.user.email, password: server.user.password)
            let enrolment = try await client.enrolTOTP()
            let app = try #require(TestAuthenticatorApp(base32: enrolment.secret))
            for _ in 0..<5 {
                await #expect(throws: LimenError.account(.invalidCode)) {
                    _ = try await enrolment.confirm(code: app.code(steps: 10))
                }
            }
            let locked = await #expect(throws: LimenError.self) { _ = try await enrolment.confirm(code: app.code()) }
            guard case .account(.tooManyAttempts(let retryAfter))? = locked else {
                Issue.record("the right code while locked: \(String(describing: locked))")
                return
            }
            #expect((retryAfter ?? 0) > 0)
            #expect(try await client.twoStepStatus() == .disabled)
        }
    }

    @Test("after the password a flow sign-in asks for the second step, which a TOTP code or a recovery code answers")
    func secondStep() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let (client, app, codes) = try await enabledTwoStep(server)

            let mfa = try await passwordStep(server)
            #expect(mfa.id == "mfa")
            #expect(mfa.collectors.map(\.key) == ["totp", "submit-totp", "recovery_code", "submit-recovery-code"])
            // The setup used the current step's code: the app's next one.
            guard case .success(let success) = await answer(mfa, "totp", app.code(steps: 1)) else {
                Issue.record("a TOTP code did not complete the sign-in")
                return
            }
            #expect(success.user.email == server.user.email)

            guard case .success = await answer(try await passwordStep(server), "recovery_code", codes[0]) else {
                Issue.record("a recovery code did not complete the sign-in")
                return
            }
            guard case .error(let reused) = await answer(try await passwordStep(server), "recovery_code", codes[0])
            else {
                Issue.record("a recovery code signed in twice")
                return
            }
            #expect(reused.details.map(\.key) == ["recovery_code"])
            #expect(reused.details.map(\.code) == ["invalid_code"])
            #expect(try await recoveryCodesLeft(client) == 9)

            let convenience = try server.cliClient()
            let stopped = await #expect(throws: FlowError.self) {
                try await convenience.signIn(email: server.user.email, password: server.user.password)
            }
            guard case .secondStepRequired? = stopped else {
                Issue.record("the convenience did not stop at the second step: \(String(describing: stopped))")
                return
            }
        }
    }

    @Test("new recovery codes replace the old; a code turns two-step sign-in off, a wrong one does not")
    func bearerAPI() async throws {
        try await LimenServerPeer.with(settings: Self.settings) { server in
            let (client, _, codes) = try await enabledTwoStep(server)

            let fresh = try await client.newRecoveryCodes(code: codes[0])
            #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: codes))
            #expect(try await recoveryCodesLeft(client) == 10)
            await #expect(throws: LimenError.account(.invalidCode)) { try await client.disableTOTP(code: codes[1]) }
            #expect(try await client.twoStepStatus().isEnabled)

            try await client.disableTOTP(code: fresh[0])
            #expect(try await client.twoStepStatus() == .disabled)
            await #expect(throws: LimenError.account(.twoStepNotEnabled)) {
                try await client.disableTOTP(code: fresh[1])
            }
            guard case .success = try await server.cliClient().startFlow("sign-in").signingIn(server) else {
                Issue.record("the password alone does not sign in once two-step sign-in is off")
                return
            }
        }
    }

    /// How many recovery codes `client`'s user has left; `nil` while two-step sign-in is off.
    func recoveryCodesLeft(_ client: AuthClient) async throws -> Int? {
        guard case .enabled(_, let left) = try await client.twoStepStatus() else { return nil }
        return left
    }
}

extension Node {
    /// The node after this sign-in step is answered with `server`'s user's email address and password.
    fileprivate func signingIn(_ server: LimenServerPeer) async -> Node {
        guard case .continue(let step) = self else { return self }
        (step.collectors.first { $0.key == "email" } as? TextCollector)?.value = server.user.email
        (step.collectors.first { $0.key == "password" } as? PasswordCollector)?.value = server.user.password
        return await step.next()
    }
}

/// A step of a two-step test that did not go as expected.
struct TwoStepTestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

@Suite("A test authenticator app")
struct TestAuthenticatorAppTests {
    /// RFC 6238 Appendix B's SHA-1 rows, cut to 6 digits (the last six of the 8-digit codes).
    @Test(
        "its codes are RFC 6238's test vectors",
        arguments: [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
            (2_000_000_000, "279037"), (20_000_000_000, "353130"),
        ])
    func rfc6238(time: Int, code: String) throws {
        let app = try #require(TestAuthenticatorApp(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"))
        #expect(app.secret == Array("12345678901234567890".utf8))
        #expect(app.code(at: Date(timeIntervalSince1970: TimeInterval(time))) == code)
    }
}
