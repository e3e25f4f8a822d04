import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Passkeys through the flows, answered by ``SoftwareAuthenticator`` as a browser or app would.
extension TokenFixture {
    /// The origin of the test server's issuer, which its ceremonies accept by default.
    static let passkeyOrigin = "http://127.0.0.1:8080"

    /// Grace's access token, from a password sign-in through the flow.
    func graceAccessToken() async throws -> String {
        let success = try await signInThroughFlow()
        return try Self.accessToken(try await redeem(try #require(success.node["code"]?.stringValue), clientID: "app"))
    }

    /// Registers a passkey for Grace with `authenticator`, named `name`; returns the answer.
    func registerPasskey(with authenticator: SoftwareAuthenticator, name: String = "Laptop") async throws
        -> RecordedResponse
    {
        let started = try await startFlow("passkey-register", bearer: try await graceAccessToken())
        let id = try #require(started["interaction"])
        let response = try authenticator.register(try Self.passkeyOptions(started))
        return try await continueFlow(
            id, node: "register", action: "submit", values: ["passkey": response, "name": .string(name)])
    }

    /// A new `passkey` interaction: its ID and the options its collector carries.
    func startPasskeySignIn() async throws -> (id: String, options: JSONValue) {
        let started = try await startFlow("passkey")
        return (try #require(started["interaction"]), try Self.passkeyOptions(started))
    }

    /// Submits `response` on the `passkey` node of interaction `id`.
    func answerPasskey(_ id: String, _ response: JSONValue) async throws -> RecordedResponse {
        try await continueFlow(id, node: "passkey", action: "submit", values: ["passkey": response])
    }

    /// The `options` of the answer's `PASSKEY` collector.
    static func passkeyOptions(_ answer: RecordedResponse) throws -> JSONValue {
        let collector = try #require(answer.collectors.first { $0["type"]?.stringValue == "PASSKEY" })
        return try #require(collector["options"])
    }
}

@Suite("Passkeys through the flows: registration with the user's bearer, usernameless sign-in, and every refusal")
struct PasskeyFlowTests {
    /// How many items the JSON array `value` has (-1 when it is not one).
    private static func count(_ value: JSONValue) -> Int {
        guard case .array(let items) = value else { return -1 }
        return items.count
    }

    @Test("a registered passkey signs its user in without a username; the options follow WebAuthn's JSON forms")
    func registerThenSignIn() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            let started = try await fixture.startFlow("passkey-register", bearer: try await fixture.graceAccessToken())
            let collector = try #require(started.collectors.first { $0["type"]?.stringValue == "PASSKEY" })
            #expect(collector["mode"]?.stringValue == "register")
            let options = try #require(collector["options"]?.objectValue)
            #expect(options["rp"]?.objectValue?["id"]?.stringValue == "127.0.0.1")
            #expect(options["rp"]?.objectValue?["name"]?.stringValue == "Limen")
            let userID = try #require(options["user"]?.objectValue?["id"]?.stringValue)
            #expect(!String(decoding: try #require(Base64URL.decode(userID)), as: UTF8.self).contains("grace"))
            #expect(options["user"]?.objectValue?["name"]?.stringValue == FlowFixture.email)
            let challenge = try #require(options["challenge"]?.stringValue)
            #expect(Base64URL.decode(challenge)?.count == 32)
            #expect(options["attestation"]?.stringValue == "none")
            #expect(options["authenticatorSelection"]?.objectValue?["residentKey"]?.stringValue == "required")
            #expect(options["pubKeyCredParams"].map(Self.count) == 3)

            let registered = try await fixture.continueFlow(
                try #require(started["interaction"]), node: "register", action: "submit",
                values: ["passkey": try authenticator.register(.object(options)), "name": .string("Laptop")])
            #expect(registered.status == .ok)
            #expect(registered.node == ["type": .string("success"), "registered": .bool(true)])
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let stored = try await fixture.provider.store.passkeyCredentials(userID: grace.id)
            #expect(stored.map(\.name) == ["Laptop"])
            #expect(stored.first?.credentialID == Data(authenticator.credentials[0].id))

            let (id, request) = try await fixture.startPasskeySignIn()
            #expect(request.objectValue?["allowCredentials"] == .array([]))
            #expect(request.objectValue?["userVerification"]?.stringValue == "required")
            #expect(request.objectValue?["rpId"]?.stringValue == "127.0.0.1")
            let success = try await fixture.answerPasskey(id, try authenticator.authenticate(request))
            #expect(success.nodeType == "success")
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            #expect(try TokenFixture.subject(of: tokens) == grace.id)
            let used = try #require(try await fixture.provider.store.passkeyCredential(id: stored[0].credentialID))
            #expect(used.signCount == 1)
            #expect(used.lastUsedAt != nil)
        }
    }

    @Test("registering needs the signed-in user's access token; a credential ID is registered once only")
    func registrationRefusals() async throws {
        try await FlowFixture.run { fixture in
            let anonymous = try await fixture.startFlow("passkey-register", bearer: nil)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.node["code"]?.stringValue == "invalid_token")

            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            // The same credential again, answered to a new ceremony (an authenticator ignoring excludeCredentials).
            let started = try await fixture.startFlow("passkey-register", bearer: try await fixture.graceAccessToken())
            let options = try TokenFixture.passkeyOptions(started)
            #expect(options.objectValue?["excludeCredentials"].map(Self.count) == 1)
            var again = try authenticator.register(options).objectValue ?? [:]
            let first = Base64URL.encode(authenticator.credentials[0].id)
            // Keep the new attestation but claim the first credential's ID: refused as malformed or taken.
            (again["id"], again["rawId"]) = (.string(first), .string(first))
            let refused = try await fixture.continueFlow(
                try #require(started["interaction"]), node: "register", action: "submit",
                values: ["passkey": .object(again)])
            #expect(refused.detailCodes == ["passkey": ["invalid_credential"]])
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.passkeyCredentials(userID: grace.id).count == 1)
        }
    }

    @Test(
        "hostile answers are refused: wrong origin, UP or UV missing, unknown credential, another key, replay, expiry, clone"
    )
    func hostileAnswers() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")

            func refusal(_ answer: (JSONValue) throws -> JSONValue) async throws -> [String: [String]] {
                let (id, options) = try await fixture.startPasskeySignIn()
                return try await fixture.answerPasskey(id, try answer(options)).detailCodes
            }
            authenticator.origin = "https://evil.example"
            #expect(try await refusal { try authenticator.authenticate($0) } == ["passkey": ["invalid_credential"]])
            authenticator.origin = TokenFixture.passkeyOrigin
            authenticator.userPresent = false
            #expect(try await refusal { try authenticator.authenticate($0) } == ["passkey": ["invalid_credential"]])
            authenticator.userPresent = true
            authenticator.userVerified = false
            #expect(try await refusal { try authenticator.authenticate($0) } == ["passkey": ["invalid_credential"]])
            authenticator.userVerified = true

            let stranger = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            _ = try stranger.register(
                try TokenFixture.passkeyOptions(
                    try await fixture.startFlow("passkey-register", bearer: try await fixture.graceAccessToken())))
            #expect(try await refusal { try stranger.authenticate($0) } == ["passkey": ["unknown_credential"]])

            // Another key's signature over the registered credential's ID.
            #expect(
                try await refusal { options in
                    var forged = try stranger.authenticate(options).objectValue ?? [:]
                    let id = JSONValue.string(Base64URL.encode(authenticator.credentials[0].id))
                    (forged["id"], forged["rawId"]) = (id, id)
                    var response = forged["response"]?.objectValue ?? [:]
                    response["userHandle"] = .string(Base64URL.encode(authenticator.credentials[0].userHandle))
                    forged["response"] = .object(response)
                    return .object(forged)
                } == ["passkey": ["invalid_credential"]])

            // A replay: an answer to one interaction's challenge, sent to another.
            let (_, earlier) = try await fixture.startPasskeySignIn()
            let replayed = try authenticator.authenticate(earlier)
            #expect(try await refusal { _ in replayed } == ["passkey": ["invalid_credential"]])

            // The same answer twice on one interaction: the challenge is spent by the first.
            let (id, options) = try await fixture.startPasskeySignIn()
            authenticator.userVerified = false
            let first = try await fixture.answerPasskey(id, try authenticator.authenticate(options))
            #expect(first.detailCodes == ["passkey": ["invalid_credential"]])
            authenticator.userVerified = true
            let late = try await fixture.answerPasskey(id, try authenticator.authenticate(options))
            #expect(late.detailCodes == ["passkey": ["invalid_credential"]], "the node shows a new challenge")

            let (expiring, expiringOptions) = try await fixture.startPasskeySignIn()
            fixture.clock.advance(by: PasskeyCeremonies.challengeLifetime + 1)
            let expired = try await fixture.answerPasskey(expiring, try authenticator.authenticate(expiringOptions))
            #expect(expired.detailCodes == ["passkey": ["challenge_expired"]])

            // A counter going back below the stored one, after a sign-in stored it.
            let (signIn, signInOptions) = try await fixture.startPasskeySignIn()
            #expect(
                try await fixture.answerPasskey(signIn, try authenticator.authenticate(signInOptions)).nodeType
                    == "success")
            authenticator.setSignCount(0, of: 0)
            #expect(try await refusal { try authenticator.authenticate($0) } == ["passkey": ["credential_cloned"]])

            #expect(
                try await refusal { _ in .object(["type": .string("public-key")]) } == [
                    "passkey": ["invalid_credential"]
                ])
            #expect(try await refusal { _ in .string("not json") } == ["passkey": ["invalid_credential"]])
        }
    }

    @Test(
        "sign-in's passkey button moves to the passkey flow with a ceremony of its own; an answer without rawId works")
    func fromSignIn() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let started = try await fixture.startFlow("sign-in")
            let id = try #require(started["interaction"])
            let moved = try await fixture.continueFlow(id, node: "credentials", action: "passkey")
            #expect(moved.node["id"]?.stringValue == "passkey")
            var answer = try authenticator.authenticate(try TokenFixture.passkeyOptions(moved)).objectValue ?? [:]
            answer["rawId"] = nil
            let success = try await fixture.answerPasskey(id, .object(answer))
            #expect(success.nodeType == "success")
            #expect(success.node["code"]?.stringValue != nil)
        }
    }

    @Test("a synced passkey (counter always 0) signs in again and again")
    func syncedPasskey() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            authenticator.counts = false
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            for _ in 0..<2 {
                let (id, options) = try await fixture.startPasskeySignIn()
                #expect(
                    try await fixture.answerPasskey(id, try authenticator.authenticate(options)).nodeType == "success")
            }
        }
    }

    @Test("configured origins and RP ID are used, and ones that cannot work are refused at start naming the key")
    func settings() async throws {
        func appOrigin(_ configuration: inout ServerConfiguration) {
            configuration.webAuthn.relyingPartyID = "127.0.0.1"
            configuration.webAuthn.origins = ["https://127.0.0.1:9443"]
        }
        try await FlowFixture.run(configure: appOrigin) { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            let issuerOrigin = try await fixture.registerPasskey(with: authenticator)
            #expect(issuerOrigin.detailCodes == ["passkey": ["invalid_credential"]], "not among the configured origins")
            authenticator.origin = "https://127.0.0.1:9443"
            let appOrigin = try await fixture.registerPasskey(with: authenticator)
            #expect(appOrigin.nodeType == "success")
        }
        let refusals: [([String: String], String)] = [
            (["LIMEN_WEBAUTHN_ORIGINS": "ftp://example.com"], "webauthn_origins"),
            (["LIMEN_WEBAUTHN_ORIGINS": "http://example.com"], "webauthn_origins"),
            (["LIMEN_WEBAUTHN_RP_ID": "Example.com/path"], "webauthn_rp_id"),
            (["LIMEN_WEBAUTHN_RP_ID": "example.com"], "webauthn_rp_id"),
            (
                ["LIMEN_WEBAUTHN_RP_ID": "example.com", "LIMEN_WEBAUTHN_ORIGINS": "https://other.example"],
                "webauthn_origins"
            ),
            (["LIMEN_WEBAUTHN_RP_NAME": String(repeating: "x", count: 65)], "webauthn_rp_name"),
        ]
        for (environment, key) in refusals {
            do {
                _ = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
                Issue.record("\(environment) was accepted")
            } catch {
                #expect(error.key == "LIMEN_" + key.uppercased() || error.key == key, "\(environment)")
            }
        }
        let accepted = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(),
            environment: [
                "LIMEN_ISSUER": "https://id.example.com", "LIMEN_WEBAUTHN_RP_ID": "example.com",
                "LIMEN_WEBAUTHN_ORIGINS":
                    "https://id.example.com, https://app.example.com:8443, android:apk-key-hash:abc_-1",
                "LIMEN_MAIL_URL": "log:",
            ])
        #expect(
            accepted.webAuthn.origins == [
                "https://id.example.com", "https://app.example.com:8443", "android:apk-key-hash:abc_-1",
            ])
    }
}
