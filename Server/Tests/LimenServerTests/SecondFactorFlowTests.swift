import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Two-step sign-in through the flows: the setup with the user's bearer, then the second step after each first step.
extension TokenFixture {
    /// Grace's two-step sign-in as her setup left it: the TOTP her app holds and her recovery codes.
    struct TwoStepSetup {
        var totp: TOTP
        var recoveryCodes: [String]
    }

    /// Turns two-step sign-in on for Grace through `totp-enrol` (her access token taken first, by password alone).
    func enableTwoStep() async throws -> TwoStepSetup {
        let started = try await startFlow("totp-enrol", bearer: try await graceAccessToken())
        let id = try #require(started["interaction"])
        let totp = try TOTP(secret: try Base32.decode(try #require(started.labelValue("secret"))))
        let enabled = try await continueFlow(
            id, node: "enrol", action: "submit", values: ["totp": .string(totp.code(at: clock.now))])
        #expect(enabled.node["id"]?.stringValue == "recovery-codes")
        let codes = try #require(enabled.labelValue("recovery_codes")).split(separator: "\n").map(String.init)
        let finished = try await continueFlow(id, node: "recovery-codes", action: "submit")
        #expect(finished.node == ["type": .string("success"), "registered": .bool(true)])
        return TwoStepSetup(totp: totp, recoveryCodes: codes)
    }

    /// Submits `value` for the second step's `key` (`totp` or `recovery_code`) on interaction `id`.
    func answerSecondStep(_ id: String, _ key: String, _ value: String) async throws -> RecordedResponse {
        let button = key == "totp" ? "submit-totp" : "submit-recovery-code"
        return try await continueFlow(id, node: "mfa", action: button, values: [key: .string(value)])
    }

    /// A password sign-in of Grace that stopped at the second step: the interaction's ID and the `mfa` node.
    func passwordFirstStep() async throws -> (id: String, node: RecordedResponse) {
        let started = try await startFlow("sign-in")
        let id = try #require(started["interaction"])
        let node = try await continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
        return (id, node)
    }
}

extension RecordedResponse {
    /// The `value` of the node's `LABEL` `key`.
    func labelValue(_ key: String) -> String? {
        collectors.first { $0["type"]?.stringValue == "LABEL" && $0["key"]?.stringValue == key }?["value"]?
            .stringValue
    }
}

@Suite("Two-step sign-in through the flows: the setup, the second step after the first, codes used once, the lockout")
struct SecondFactorFlowTests {
    @Test(
        "the setup shows an otpauth URI and the secret, is turned on only by a current code, and shows ten codes once")
    func setup() async throws {
        try await FlowFixture.run { fixture in
            let anonymous = try await fixture.startFlow("totp-enrol", bearer: nil)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.node["code"]?.stringValue == "invalid_token")

            let bearer = try await fixture.graceAccessToken()
            let started = try await fixture.startFlow("totp-enrol", bearer: bearer)
            let id = try #require(started["interaction"])
            let uri = try #require(started.labelValue("otpauth_uri"))
            let secret = try #require(started.labelValue("secret"))
            #expect(uri.hasPrefix("otpauth://totp/Limen:grace%40example.com?secret=\(secret)&issuer=Limen"))
            let totp = try TOTP(secret: try Base32.decode(secret))
            #expect(totp.secret.count == TOTP.secretByteCount)

            let wrong = try await fixture.continueFlow(
                id, node: "enrol", action: "submit",
                values: ["totp": .string(totp.code(at: fixture.clock.now.addingTimeInterval(120)))])
            #expect(wrong.detailCodes == ["totp": ["invalid_code"]])
            #expect(wrong.labelValue("secret") == secret, "the same secret, which the app already holds")
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.secondFactor(userID: grace.id) == nil)

            let enabled = try await fixture.continueFlow(
                id, node: "enrol", action: "submit", values: ["totp": .string(totp.code(at: fixture.clock.now))])
            let codes = try #require(enabled.labelValue("recovery_codes")).split(separator: "\n")
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            #expect(codes.allSatisfy { RecoveryCode(typed: String($0)) != nil })
            let stored = try #require(try await fixture.provider.store.secondFactor(userID: grace.id))
            #expect(stored.recoveryCodeHashes.count == 10)
            #expect(
                stored.recoveryCodeHashes.contains(try #require(RecoveryCode(typed: String(codes[0]))).hash))
            #expect(
                !stored.sealedTOTPSecret.contains(Data(totp.secret)) && stored.sealedTOTPSecret.count > 20,
                "the secret is sealed at rest")
            let finished = try await fixture.continueFlow(id, node: "recovery-codes", action: "submit")
            #expect(finished.node == ["type": .string("success"), "registered": .bool(true)])

            let again = try await fixture.startFlow("totp-enrol", bearer: bearer)
            #expect(again.status == .conflict)
            #expect(again.node["code"]?.stringValue == "second_factor_enabled")
        }
    }

    @Test("a re-read of the setup node shows the same secret again; the recovery codes are never shown again")
    func reread() async throws {
        try await FlowFixture.run { fixture in
            let started = try await fixture.startFlow("totp-enrol", bearer: try await fixture.graceAccessToken())
            let id = try #require(started["interaction"])
            let (uri, secret) = (started.labelValue("otpauth_uri"), started.labelValue("secret"))
            #expect(uri != nil && secret != nil)
            let engine = fixture.provider.flowEngine
            guard case .continue(let node, _, let prefill) = try await engine.current(id: id).node else {
                Issue.record("the setup node is not shown again")
                return
            }
            #expect(node.id == "enrol")
            #expect(prefill["otpauth_uri"] == uri)
            #expect(prefill["secret"] == secret)

            let totp = try TOTP(secret: try Base32.decode(try #require(secret)))
            let enabled = try await fixture.continueFlow(
                id, node: "enrol", action: "submit", values: ["totp": .string(totp.code(at: fixture.clock.now))])
            #expect(enabled.labelValue("recovery_codes") != nil)
            guard case .continue(let shown, _, let values) = try await engine.current(id: id).node else {
                Issue.record("the recovery codes node is not shown again")
                return
            }
            #expect(shown.id == "recovery-codes")
            #expect(values["recovery_codes"] == nil, "shown once")
            #expect(values["secret"] == nil && values["otpauth_uri"] == nil)
        }
    }

    @Test("after the password the sign-in asks for the second step; a TOTP code completes it and works once")
    func totpSecondStep() async throws {
        try await FlowFixture.run { fixture in
            let setup = try await fixture.enableTwoStep()
            let (id, node) = try await fixture.passwordFirstStep()
            #expect(node.node["id"]?.stringValue == "mfa")
            #expect(node.node["type"]?.stringValue == "continue")
            #expect(node.collectorKeys == ["totp", "submit-totp", "recovery_code", "submit-recovery-code"])
            #expect(node["code"] == nil)

            // The first step's node is no longer current: pressing it again does not skip the second step.
            let replayed = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(replayed.node["id"]?.stringValue == "mfa")
            #expect(replayed.nodeType == "error")

            // The setup's code, still in its time step, was used: refused.
            let reused = try await fixture.answerSecondStep(id, "totp", setup.totp.code(at: fixture.clock.now))
            #expect(reused.detailCodes == ["totp": ["invalid_code"]])
            fixture.clock.advance(by: 30)
            let success = try await fixture.answerSecondStep(id, "totp", setup.totp.code(at: fixture.clock.now))
            #expect(success.nodeType == "success")
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try TokenFixture.subject(of: tokens) == grace.id)

            let (second, _) = try await fixture.passwordFirstStep()
            let replay = try await fixture.answerSecondStep(second, "totp", setup.totp.code(at: fixture.clock.now))
            #expect(replay.detailCodes == ["totp": ["invalid_code"]], "a code signs in once")
        }
    }

    @Test("a code of the step before or after is accepted; two steps away is refused")
    func clockSkew() async throws {
        try await FlowFixture.run { fixture in
            let setup = try await fixture.enableTwoStep()
            fixture.clock.advance(by: 300)
            let (id, _) = try await fixture.passwordFirstStep()
            let far = try await fixture.answerSecondStep(
                id, "totp", setup.totp.code(at: fixture.clock.now.addingTimeInterval(60)))
            #expect(far.detailCodes == ["totp": ["invalid_code"]])
            let behind = try await fixture.answerSecondStep(
                id, "totp", setup.totp.code(at: fixture.clock.now.addingTimeInterval(-30)))
            #expect(behind.nodeType == "success")
            let (next, _) = try await fixture.passwordFirstStep()
            let ahead = try await fixture.answerSecondStep(
                next, "totp", setup.totp.code(at: fixture.clock.now.addingTimeInterval(30)))
            #expect(ahead.nodeType == "success")
        }
    }

    @Test("five wrong codes lock the account for the address: even the right code then waits")
    func lockout() async throws {
        try await FlowFixture.run { fixture in
            let setup = try await fixture.enableTwoStep()
            fixture.clock.advance(by: 60)
            let (id, _) = try await fixture.passwordFirstStep()
            let right = setup.totp.code(at: fixture.clock.now)
            let wrong = right == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let refused = try await fixture.answerSecondStep(id, "totp", wrong)
                #expect(refused.detailCodes == ["totp": ["invalid_code"]])
            }
            let locked = try await fixture.answerSecondStep(id, "totp", right)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] != nil)
            #expect(locked.nodeType == "error")
            let password = try await fixture.passwordFirstStep()
            #expect(password.node.status == .tooManyRequests, "wrong codes count toward the password's lockout")
        }
    }

    @Test("a recovery code completes the second step once; a passkey sign-in needs no second step")
    func recoveryCodesAndPasskeys() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let setup = try await fixture.enableTwoStep()

            let (id, node) = try await fixture.passwordFirstStep()
            #expect(node.collectorKeys.contains("passkey"), "her passkey is one of her ways")
            let options = try TokenFixture.passkeyOptions(node)
            guard case .array(let allowed)? = options.objectValue?["allowCredentials"] else {
                Issue.record("no allowCredentials in \(options)")
                return
            }
            #expect(allowed.count == 1)
            let used = try await fixture.answerSecondStep(id, "recovery_code", setup.recoveryCodes[3].uppercased())
            #expect(used.nodeType == "success")
            let (again, shownFirst) = try await fixture.passwordFirstStep()
            let reused = try await fixture.answerSecondStep(again, "recovery_code", setup.recoveryCodes[3])
            #expect(reused.detailCodes == ["recovery_code": ["invalid_code"]])
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.secondFactor(userID: grace.id)?.recoveryCodeHashes.count == 9)

            // The options of an earlier showing: their challenge was replaced when the node was shown again.
            let stale = try TokenFixture.passkeyOptions(shownFirst)
            let passkeyStep = try await fixture.continueFlow(
                again, node: "mfa", action: "submit-passkey",
                values: ["passkey": try authenticator.authenticate(stale)])
            #expect(
                passkeyStep.detailCodes == ["passkey": ["invalid_credential"]], "each showing has its own challenge")
            let current = try TokenFixture.passkeyOptions(passkeyStep)
            let byPasskey = try await fixture.continueFlow(
                again, node: "mfa", action: "submit-passkey",
                values: ["passkey": try authenticator.authenticate(current)])
            #expect(byPasskey.nodeType == "success")

            let (passkeyID, request) = try await fixture.startPasskeySignIn()
            let direct = try await fixture.answerPasskey(passkeyID, try authenticator.authenticate(request))
            #expect(direct.nodeType == "success", "a user-verified passkey is two factors in one")
        }
    }
}
