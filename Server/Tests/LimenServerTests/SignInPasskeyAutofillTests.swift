import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The sign-in node's conditional `PASSKEY`: a one-use challenge of the interaction, for autofill.
extension TokenFixture {
    /// A new `sign-in` interaction: its ID and the options of its conditional `PASSKEY`.
    func startSignInWithAutofill() async throws -> (id: String, options: JSONValue) {
        let started = try await startFlow("sign-in")
        return (try #require(started["interaction"]), try Self.passkeyOptions(started))
    }

    /// Submits `response` as the autofill's answer to the sign-in node of interaction `id`, without email or password.
    func answerAutofill(_ id: String, _ response: JSONValue) async throws -> RecordedResponse {
        try await continueFlow(
            id, node: "credentials", action: "submit-passkey", values: ["passkey-autofill": response])
    }
}

@Suite("Autofill on the sign-in node: its conditional passkey request, one use, bound to the interaction")
struct SignInPasskeyAutofillTests {
    /// Runs `body` with a flow fixture whose user registered a passkey in `authenticator`.
    private static func withRegisteredPasskey(
        _ body: @escaping @Sendable (TokenFixture, SoftwareAuthenticator) async throws -> Void
    ) async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            try await body(fixture, authenticator)
        }
    }

    @Test("the sign-in node carries a conditional request; a passkey picked signs in without email or password")
    func autofillSignsIn() async throws {
        try await Self.withRegisteredPasskey { fixture, authenticator in
            let started = try await fixture.startFlow("sign-in")
            let collector = try #require(started.collectors.first { $0["type"]?.stringValue == "PASSKEY" })
            #expect(collector["key"]?.stringValue == "passkey-autofill")
            #expect(collector["mode"]?.stringValue == "authenticate")
            #expect(collector["mediation"]?.stringValue == "conditional")
            #expect(collector["required"] == .bool(false))
            let options = try #require(collector["options"]?.objectValue)
            #expect(options["allowCredentials"] == .array([]), "usernameless: any of the RP's passkeys")
            #expect(Base64URL.decode(try #require(options["challenge"]?.stringValue))?.count == 32)

            let id = try #require(started["interaction"])
            let success = try await fixture.answerAutofill(id, try authenticator.authenticate(.object(options)))
            #expect(success.nodeType == "success")
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try TokenFixture.subject(of: tokens) == grace.id)
            let claims = try UnverifiedJWT(try #require(tokens["id_token"])).claims
            #expect(claims.amr == ["hwk", "user", "mfa"], "a passkey's methods, no password")
        }
    }

    @Test("the node's password sign-in still needs its fields; the autofill's button needs a passkey")
    func buttonsStayApart() async throws {
        try await FlowFixture.run { fixture in
            let (id, _) = try await fixture.startSignInWithAutofill()
            let noPassword = try await fixture.continueFlow(
                id, node: "credentials", action: "submit", values: ["email": .string(FlowFixture.email)])
            #expect(noPassword.detailCodes["password"] == ["required"])
            let noPasskey = try await fixture.continueFlow(
                id, node: "credentials", action: "submit-passkey", values: ["email": .string(FlowFixture.email)])
            #expect(noPasskey.detailCodes == ["passkey-autofill": ["invalid_credential"]])
        }
    }

    @Test("refused: a replayed answer, another interaction's challenge, a challenge of a finished flow, an old one")
    func refusals() async throws {
        try await Self.withRegisteredPasskey { fixture, authenticator in

            // Another interaction's challenge (its own passkey flow's, or another sign-in's).
            let (mine, _) = try await fixture.startSignInWithAutofill()
            let (_, theirs) = try await fixture.startSignInWithAutofill()
            let (_, passkeyFlow) = try await fixture.startPasskeySignIn()
            for options in [theirs, passkeyFlow] {
                let refused = try await fixture.answerAutofill(mine, try authenticator.authenticate(options))
                #expect(refused.detailCodes == ["passkey-autofill": ["invalid_credential"]])
            }

            // A challenge of a flow that finished (signed in by password): its interaction is over, and its answer
            // does not answer a new interaction either.
            let (finished, finishedOptions) = try await fixture.startSignInWithAutofill()
            let signedIn = try await fixture.continueFlow(
                finished, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(signedIn.nodeType == "success")
            let late = try authenticator.authenticate(finishedOptions)
            #expect(try await fixture.answerAutofill(finished, late).status == .conflict)
            let (fresh, _) = try await fixture.startSignInWithAutofill()
            #expect(
                try await fixture.answerAutofill(fresh, late).detailCodes == [
                    "passkey-autofill": ["invalid_credential"]
                ])

            // One use: a refused answer spends the challenge, and the node shows a new one.
            let (id, options) = try await fixture.startSignInWithAutofill()
            authenticator.userVerified = false
            let first = try await fixture.answerAutofill(id, try authenticator.authenticate(options))
            #expect(first.detailCodes == ["passkey-autofill": ["invalid_credential"]])
            let renewed = try TokenFixture.passkeyOptions(first)
            #expect(renewed.objectValue?["challenge"] != options.objectValue?["challenge"])
            authenticator.userVerified = true
            let again = try await fixture.answerAutofill(id, try authenticator.authenticate(options))
            #expect(again.detailCodes == ["passkey-autofill": ["invalid_credential"]], "the first challenge is spent")

            // The challenge shown now (each refusal shows a new one) signs in once; the same answer again finds the
            // interaction over.
            let answer = try authenticator.authenticate(try TokenFixture.passkeyOptions(again))
            #expect(try await fixture.answerAutofill(id, answer).nodeType == "success")
            #expect(try await fixture.answerAutofill(id, answer).status == .conflict)

            // An expired challenge.
            let (expiring, expiringOptions) = try await fixture.startSignInWithAutofill()
            fixture.clock.advance(by: PasskeyCeremonies.challengeLifetime + 1)
            let expired = try await fixture.answerAutofill(expiring, try authenticator.authenticate(expiringOptions))
            #expect(expired.detailCodes == ["passkey-autofill": ["challenge_expired"]])
        }
    }
}
