import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension AppleFixture {
    /// A stand-in Apple, a provider trusting it over `backend` (adjusted by `configure`), and the flows' `app` client and Grace's account
    /// (``FlowFixture/prepare(_:)``).
    static func runWithFlows(
        on backend: TokenBackend = .sqlite,
        teamKey: Bool = false,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (AppleFixture) async throws -> Void
    ) async throws {
        try await run(on: backend, teamKey: teamKey, configure: configure) { fixture in
            try await FlowFixture.prepare(fixture.tokens)
            try await body(fixture)
        }
    }

    /// The `apple` flow started for the `app` client (with `bearer` as the signed-in user's access token and `extra`
    /// start fields) and its button pressed with `identityToken`, `rawNonce`, `name` and `authorizationCode`.
    func signInThroughFlow(
        _ identityToken: String,
        rawNonce: String = rawNonce,
        name: String? = nil,
        bearer: String? = nil,
        extra: [(String, String)] = [],
        authorizationCode: String? = nil
    ) async throws -> RecordedResponse {
        let started = try await tokens.startFlow("apple", bearer: bearer, extra: extra)
        let id = try #require(started["interaction"])
        var values: [String: JSONValue] = ["identity_token": .string(identityToken), "nonce": .string(rawNonce)]
        if let name { values["name"] = .string(name) }
        if let authorizationCode { values["authorization_code"] = .string(authorizationCode) }
        return try await tokens.continueFlow(id, node: "apple", action: "submit", values: values)
    }

    /// The tokens the success answer's code redeems to, for the `app` client.
    func redeem(_ success: RecordedResponse) async throws -> RecordedResponse {
        #expect(success.nodeType == "success", "\(String(decoding: success.body, as: UTF8.self))")
        let tokens = try await tokens.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
        #expect(tokens.status == .ok)
        return tokens
    }

    /// A user signed in through the `apple` flow with Apple's `subject` (nobody signed in on the device): their ID.
    func appleUser(_ subject: String) async throws -> String {
        let success = try await signInThroughFlow(try await identityToken(subject: subject))
        return try TokenFixture.subject(of: try await redeem(success))
    }
}

@Suite("The apple flow: Sign in with Apple as a native flow, with RxFireAuth's linking cases")
struct AppleFlowTests {
    @Test(
        "nobody signed in: a new user whose code redeems to their ID token; the same Apple ID again keeps the name",
        arguments: TokenBackend.allCases)
    func newUser(_ backend: TokenBackend) async throws {
        try await AppleFixture.runWithFlows(on: backend) { fixture in
            let started = try await fixture.tokens.startFlow("apple", bearer: nil)
            #expect(started.node["id"]?.stringValue == "apple")
            #expect(started.collectorKeys == ["identity_token", "nonce", "name", "authorization_code", "submit"])
            #expect(started.collectors.prefix(4).map { $0["type"]?.stringValue } == ["TEXT", "TEXT", "TEXT", "TEXT"])
            #expect(
                started.collectors.prefix(4).map { $0["required"] }
                    == [.bool(true), .bool(true), .bool(false), .bool(false)])

            let token = try await fixture.identityToken(extra: [
                "email": .string("lovelace@example.com"), "email_verified": .bool(true),
            ])
            let first = try await fixture.signInThroughFlow(token, name: "  Ada Lovelace ")
            #expect(first.node["new_user"] == .bool(true))
            let tokens = try await fixture.redeem(first)
            let id = try TokenFixture.subject(of: tokens)
            let idToken = try await fixture.tokens.idTokenValidator(clientID: "app").validate(
                try #require(tokens["id_token"]), nonce: "n-1")
            #expect(idToken.subject == id)
            let user = try #require(try await fixture.tokens.provider.store.user(id: id))
            #expect(user.name == "Ada Lovelace")
            #expect(user.email == "lovelace@example.com" && user.emailVerified)
            let identities = try await fixture.tokens.provider.store.identities(userID: id)
            #expect(identities.filter { $0.kind == AppleSignIn.identityKind }.map(\.subject) == ["001234.abcdef"])

            let again = try await fixture.signInThroughFlow(try await fixture.identityToken(), name: "Mallory")
            #expect(again.node["new_user"] == .bool(false))
            #expect(try TokenFixture.subject(of: try await fixture.redeem(again)) == id)
            #expect(try await fixture.tokens.provider.store.user(id: id)?.name == "Ada Lovelace")
        }
    }

    /// How a test spoils the submission.
    enum Spoiled: String, CaseIterable, Sendable {
        case nonceMismatch, badSignature, wrongAudience
    }

    @Test(
        "a nonce mismatch, bad signature or wrong audience is refused alike, the token never echoed, no user made",
        arguments: Spoiled.allCases)
    func refused(_ spoiled: Spoiled) async throws {
        try await AppleFixture.runWithFlows { fixture in
            let usersBefore = try await fixture.tokens.provider.store.users().count
            let token: String
            var rawNonce = AppleFixture.rawNonce
            switch spoiled {
            case .nonceMismatch:
                token = try await fixture.identityToken()
                rawNonce = "another-nonce"
            case .badSignature:
                let (good, other) = (try await fixture.identityToken(), try await fixture.identityToken(subject: "x"))
                let (parts, otherParts) = (good.split(separator: "."), other.split(separator: "."))
                token = "\(parts[0]).\(parts[1]).\(otherParts[2])"
            case .wrongAudience:
                token = try await fixture.identityToken(extra: ["aud": .string("com.evil.app")])
            }
            let answer = try await fixture.signInThroughFlow(token, rawNonce: rawNonce, name: "Eve")
            #expect(answer.status == .ok)
            #expect(answer.nodeType == "error")
            #expect(answer.node["id"]?.stringValue == "apple")
            #expect(answer.detailCodes == ["identity_token": ["invalid_identity_token"]])
            #expect(answer.node["message"] == .string("Sign in with Apple did not work. Try again."))
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(!body.contains(token) && !body.contains(String(token.split(separator: ".")[1])))
            #expect(try await fixture.tokens.provider.store.users().count == usersBefore)
        }
    }

    @Test(
        "a guest signed in: the Apple ID is linked to them, same subject, and the level rises on refresh",
        arguments: TokenBackend.allCases)
    func guestLinks(_ backend: TokenBackend) async throws {
        try await AppleFixture.runWithFlows(on: backend) { fixture in
            let guest = try await fixture.tokens.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let token = try await fixture.identityToken(extra: [
                "email": .string("guest@example.com"), "email_verified": .bool(true),
            ])
            let done = try await fixture.signInThroughFlow(
                token, name: "Guest", bearer: try TokenFixture.accessToken(guest))
            #expect(done.node["new_user"] == .bool(false), "linked, not created")
            #expect(try TokenFixture.subject(of: try await fixture.redeem(done)) == guestID)
            let user = try #require(try await fixture.tokens.provider.store.user(id: guestID))
            #expect(user.email == "guest@example.com" && user.name == "Guest" && user.authLevel == .verified)
            #expect(
                try await fixture.tokens.provider.store.user(
                    identityKind: AppleSignIn.identityKind, subject: "001234.abcdef")?.id == guestID)
            let refreshed = try await fixture.tokens.refresh(try #require(guest["refresh_token"]), clientID: "app")
            #expect(try UnverifiedJWT(try #require(refreshed["id_token"]))[claim: "auth_level"] == .string("verified"))
        }
    }

    @Test(
        "a guest with another account's Apple ID: migration_required, with allow_migration that account, guest deleted")
    func guestMigrates() async throws {
        try await AppleFixture.runWithFlows { fixture in
            let owner = try await fixture.appleUser("001234.abcdef")
            let guest = try await fixture.tokens.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let bearer = try TokenFixture.accessToken(guest)
            let refused = try await fixture.signInThroughFlow(try await fixture.identityToken(), bearer: bearer)
            #expect(refused.nodeType == "error")
            #expect(refused.detailCodes == ["identity_token": ["migration_required"]])
            #expect(try await fixture.tokens.provider.store.user(id: guestID) != nil)

            let done = try await fixture.signInThroughFlow(
                try await fixture.identityToken(), bearer: bearer, extra: [("allow_migration", "true")])
            #expect(done.node["new_user"] == .bool(false))
            #expect(try TokenFixture.subject(of: try await fixture.redeem(done)) == owner)
            #expect(try await fixture.tokens.provider.store.user(id: guestID) == nil, "the guest is deleted")
        }
    }

    @Test(
        "a user signed in: a new Apple ID links, another's is credential_in_use, a second one account_has_identity")
    func signedInUser() async throws {
        try await AppleFixture.runWithFlows { fixture in
            let other = try await fixture.appleUser("other.sub")
            let grace = try await fixture.tokens.redeem(
                try #require(try await fixture.tokens.signInThroughFlow().node["code"]?.stringValue), clientID: "app")
            let graceID = try TokenFixture.subject(of: grace)
            let bearer = try TokenFixture.accessToken(grace)

            let inUse = try await fixture.signInThroughFlow(
                try await fixture.identityToken(subject: "other.sub"), bearer: bearer,
                extra: [("allow_migration", "true")])
            #expect(inUse.detailCodes == ["identity_token": ["credential_in_use"]])
            #expect(
                try await fixture.tokens.provider.store.user(
                    identityKind: AppleSignIn.identityKind, subject: "other.sub")?.id == other)

            let linked = try await fixture.signInThroughFlow(
                try await fixture.identityToken(subject: "grace.sub"), name: "Mallory", bearer: bearer)
            #expect(try TokenFixture.subject(of: try await fixture.redeem(linked)) == graceID)
            #expect(try await fixture.tokens.provider.store.user(id: graceID)?.name == "Grace")

            let second = try await fixture.signInThroughFlow(
                try await fixture.identityToken(subject: "second.sub"), bearer: bearer)
            #expect(second.detailCodes == ["identity_token": ["account_has_identity"]])
            #expect(
                try await fixture.tokens.provider.store.user(
                    identityKind: AppleSignIn.identityKind, subject: "second.sub") == nil)
        }
    }

    @Test("with sign-up turned off an Apple ID with an account signs in, a new one fails with sign_up_disabled")
    func signUpOff() async throws {
        let signUpOff: @Sendable (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }
        try await AppleFixture.runWithFlows(configure: signUpOff) { fixture in
            let store = fixture.tokens.provider.store
            let known = UserRecord(id: "known-user", email: nil, createdAt: fixture.now)
            try await store.insertUserIfAbsent(known)
            _ = try await store.insertIdentityIfAbsent(
                IdentityRecord(
                    kind: AppleSignIn.identityKind, subject: "known.sub", userID: known.id, createdAt: fixture.now))
            let again = try await fixture.signInThroughFlow(try await fixture.identityToken(subject: "known.sub"))
            #expect(try TokenFixture.subject(of: try await fixture.redeem(again)) == known.id)

            let usersBefore = try await store.users().count
            let refused = try await fixture.signInThroughFlow(try await fixture.identityToken(subject: "new.sub"))
            #expect(refused.status == .forbidden)
            #expect(refused.node["code"]?.stringValue == "sign_up_disabled")
            #expect(try await store.users().count == usersBefore)
        }
    }

    @Test("link_by_verified_email: a guest meeting an account's verified address links nothing until they migrate")
    func linkByVerifiedEmail() async throws {
        let linkByEmail: @Sendable (inout ServerConfiguration) -> Void = { $0.apple?.linkByVerifiedEmail = true }
        try await AppleFixture.runWithFlows(configure: linkByEmail) { fixture in
            let store = fixture.tokens.provider.store
            let owner = UserRecord(
                id: "owner", email: "owner@example.com", emailVerified: true, createdAt: fixture.now)
            try await store.insertUserIfAbsent(owner)
            let token = try await fixture.identityToken(extra: [
                "email": .string("owner@example.com"), "email_verified": .bool(true),
            ])
            let guest = try await fixture.tokens.guestTokens()
            let bearer = try TokenFixture.accessToken(guest)
            let refused = try await fixture.signInThroughFlow(token, bearer: bearer)
            #expect(refused.detailCodes == ["identity_token": ["migration_required"]])
            #expect(
                try await store.user(identityKind: AppleSignIn.identityKind, subject: "001234.abcdef") == nil,
                "nothing linked")

            let done = try await fixture.signInThroughFlow(token, bearer: bearer, extra: [("allow_migration", "false")])
            #expect(try TokenFixture.subject(of: try await fixture.redeem(done)) == owner.id)
            #expect(
                try await store.user(identityKind: AppleSignIn.identityKind, subject: "001234.abcdef")?.id == owner.id)
        }
    }

    @Test("the apple flow is for native apps only: no hosted page shows or takes it")
    func noHostedPage() async throws {
        let apple: (inout ServerConfiguration) -> Void = { $0.apple = AppleSignIn(bundleIDs: [AppleFixture.bundleID]) }
        try await withSignIn(configure: apple) { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            let page = try await browser.send(fixture.client, "/login?flow=apple&request=\(requestID)")
            #expect(page.status == .notFound)
            let posted = try await browser.submit(
                fixture.client, signIn, to: "/login",
                [("flow", "apple"), ("identity_token", "a.b.c"), ("nonce", "n"), ("action", "submit")])
            #expect(posted.status == .notFound)
            #expect(!posted.body.contains("a.b.c"))
        }
    }

    @Test("without the apple setting there is no apple flow: unknown_flow, 404")
    func absentWithoutSetting() async throws {
        try await FlowFixture.run { fixture in
            let started = try await fixture.startFlow("apple", bearer: nil)
            #expect(started.status == .notFound)
            #expect(started.node["code"]?.stringValue == "unknown_flow")
        }
    }
}
