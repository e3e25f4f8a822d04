import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension TokenFixture {
    /// The claims of the ID token a flow's success node leads to (its code redeemed by the `app` client).
    func idTokenClaims(of success: RecordedResponse) async throws -> [String: JSONValue] {
        let tokens = try await redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
        return try UnverifiedJWT(try #require(tokens["id_token"])).claims
    }

    /// A password sign-in of Grace in `sign-in` started with `acr_values`: the interaction's ID and the answer to
    /// her password.
    func passwordSignIn(acrValues: String) async throws -> (id: String, node: RecordedResponse) {
        let started = try await startFlow("sign-in", bearer: nil, extra: [("acr_values", acrValues)])
        let id = try #require(started["interaction"])
        let node = try await continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
        return (id, node)
    }
}

extension [String: JSONValue] {
    /// The `amr` values of these claims.
    var amr: [String]? { self["amr"]?.stringArrayValue }
}

@Suite("amr and acr through the flows: each way of signing in, step-up by acr_values, clients that require a level")
struct AuthenticationLevelFlowTests {
    @Test("a password alone is pwd at acr 1; with its second step, pwd otp mfa at acr mfa; a passkey is phr")
    func methodsOfEachSignIn() async throws {
        try await FlowFixture.run { fixture in
            let password = try await fixture.idTokenClaims(of: try await fixture.signInThroughFlow())
            #expect(password.amr == ["pwd"])
            #expect(password["acr"]?.stringValue == "1")

            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let (passkeyID, request) = try await fixture.startPasskeySignIn()
            let passkey = try await fixture.idTokenClaims(
                of: try await fixture.answerPasskey(passkeyID, try authenticator.authenticate(request)))
            #expect(passkey.amr == ["hwk", "user", "mfa"], "a passkey that cannot be backed up, user-verified")
            #expect(passkey["acr"]?.stringValue == "phr")

            let setup = try await fixture.enableTwoStep()
            fixture.clock.advance(by: 30)
            let (id, _) = try await fixture.passwordFirstStep()
            let twoStep = try await fixture.idTokenClaims(
                of: try await fixture.answerSecondStep(id, "totp", setup.totp.code(at: fixture.clock.now)))
            #expect(twoStep.amr == ["pwd", "otp", "mfa"])
            #expect(twoStep["acr"]?.stringValue == "mfa")

            let (byCode, _) = try await fixture.passwordFirstStep()
            let recovered = try await fixture.answerSecondStep(byCode, "recovery_code", setup.recoveryCodes[0])
            let tokens = try await fixture.redeem(try #require(recovered.node["code"]?.stringValue), clientID: "app")
            let access = try UnverifiedJWT(try #require(tokens["access_token"])).claims
            #expect(access.amr == ["pwd", "otp", "mfa"], "the access token says it too (RFC 9068 §2.2.1)")
            let refreshed = try await fixture.post(
                "/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", try #require(tokens["refresh_token"])),
                    ("client_id", "app"),
                ])
            let again = try UnverifiedJWT(try #require(refreshed["id_token"])).claims
            #expect(again.amr == ["pwd", "otp", "mfa"], "a refresh keeps how the user signed in")
            #expect(again["acr"]?.stringValue == "mfa")
        }
    }

    @Test("acr_values=mfa makes a password sign-in ask for the passkey she has; phr offers nothing but the passkey")
    func stepUpToWhatTheUserHas() async throws {
        try await FlowFixture.run { fixture in
            let (noWay, refused) = try await fixture.passwordSignIn(acrValues: "mfa")
            #expect(refused.nodeType == "failure")
            #expect(refused.node["code"]?.stringValue == "unmet_authentication_requirements")
            #expect(refused.status == .forbidden)
            #expect(try await fixture.continueFlow(noWay, node: "mfa", action: "submit-passkey").nodeType == "failure")

            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let (id, step) = try await fixture.passwordSignIn(acrValues: "mfa")
            #expect(step.node["id"]?.stringValue == "mfa")
            #expect(step.collectorKeys == ["passkey", "submit-passkey"], "her only second factor: the passkey")
            let done = try await fixture.continueFlow(
                id, node: "mfa", action: "submit-passkey",
                values: ["passkey": try authenticator.authenticate(try TokenFixture.passkeyOptions(step))])
            let claims = try await fixture.idTokenClaims(of: done)
            #expect(claims.amr == ["pwd", "hwk", "user", "mfa"])
            #expect(claims["acr"]?.stringValue == "phr")

            _ = try await fixture.enableTwoStep()
            let (_, phr) = try await fixture.passwordSignIn(acrValues: "phr")
            #expect(phr.collectorKeys == ["passkey", "submit-passkey"], "a TOTP code is not phishing-resistant")
            let (_, mfa) = try await fixture.passwordSignIn(acrValues: "1 mfa")
            #expect(mfa.collectorKeys.contains("totp"), "the weakest level asked for is enough")
        }
    }

    @Test("a passkey reaches every level at once; acr_values naming nothing known is refused")
    func passkeyAndUnknownValues() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let started = try await fixture.startFlow("passkey", bearer: nil, extra: [("acr_values", "phr")])
            let id = try #require(started["interaction"])
            let options = try TokenFixture.passkeyOptions(started)
            let done = try await fixture.answerPasskey(id, try authenticator.authenticate(options))
            #expect(done.nodeType == "success")

            let unknown = try await fixture.startFlow(
                "sign-in", bearer: nil, extra: [("acr_values", "urn:example:gold")])
            #expect(unknown.status == .badRequest)
            #expect(unknown.node["code"]?.stringValue == "invalid_request")
        }
    }

    @Test("a client registered with require_acr=mfa gets the second step without asking; a guest cannot reach it")
    func clientRequirement() async throws {
        try await FlowFixture.run { fixture in
            let store = fixture.provider.store
            var app = try #require(try await store.client(id: "app"))
            #expect(try await store.deleteClient(id: "app"))
            app.requiredACR = "mfa"
            #expect(try await store.insertClientIfAbsent(app))
            fixture.provider.clientCache.forget(id: "app")

            let password = try await fixture.signInThroughFlow()
            #expect(password.node["code"]?.stringValue == "unmet_authentication_requirements")
            // Her authenticator app, added as the setup would (which itself needs a sign-in at mfa now).
            let grace = try #require(try await store.user(email: FlowFixture.email))
            let totp = try await fixture.provider.enableTOTP(for: grace, at: fixture.clock.now)
            let (id, step) = try await fixture.passwordFirstStep()
            #expect(step.node["id"]?.stringValue == "mfa")
            let done = try await fixture.answerSecondStep(id, "totp", totp.code(at: fixture.clock.now))
            #expect(try await fixture.idTokenClaims(of: done)["acr"]?.stringValue == "mfa")

            let guest = try await fixture.startFlow("anonymous", pressing: "submit")
            #expect(guest.node["code"]?.stringValue == "unmet_authentication_requirements")
        }
    }
}
