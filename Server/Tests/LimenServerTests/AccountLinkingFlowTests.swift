import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension TokenFixture {
    /// The `app` client's usual start fields, and `extra`.
    static func appStartFields(_ extra: [(String, String)] = []) -> [(String, String)] {
        [
            ("client_id", "app"), ("redirect_uri", nativeRedirect), ("scope", "openid email offline_access"),
            ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", PKCE.fixture.challenge),
            ("code_challenge_method", "S256"),
        ] + extra
    }

    /// `POST /flows/{flow}` for the `app` client carrying `bearer` as the signed-in user's access token.
    func startFlow(_ flow: String, bearer: String?, extra: [(String, String)] = []) async throws -> RecordedResponse {
        try await post(
            "/flows/\(flow)", Self.appStartFields(extra),
            headers: bearer.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    /// A guest's tokens: the `anonymous` flow run and its code redeemed.
    func guestTokens() async throws -> RecordedResponse {
        let id = try #require(try await startFlow("anonymous")["interaction"])
        let success = try await continueFlow(id, node: "guest", action: "submit")
        return try await redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
    }

    /// The access token in `tokens`.
    static func accessToken(_ tokens: RecordedResponse) throws -> String {
        try #require(tokens["access_token"])
    }

    /// The subject of the ID token in `tokens`.
    static func subject(of tokens: RecordedResponse) throws -> String {
        let idToken = try #require(tokens["id_token"])
        return try #require(try UnverifiedJWT(idToken).subject)
    }
}

@Suite("Linking and migration: RxFireAuth's five cases through the flows, with the signed-in user's bearer token")
struct AccountLinkingFlowTests {
    /// Signs Grace in through `sign-in` started with `bearer` and `extra` start fields.
    private static func signInGrace(
        _ fixture: TokenFixture,
        bearer: String?,
        extra: [(String, String)] = []
    ) async throws -> RecordedResponse {
        let id = try #require(try await fixture.startFlow("sign-in", bearer: bearer, extra: extra)["interaction"])
        return try await fixture.continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
    }

    @Test("case 1: a guest signing up keeps their user ID, profile and grant; the level rises on refresh")
    func guestSignsUp() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            _ = try await fixture.provider.store.writeProfile(
                userID: guestID, data: ["score": .number(7)], expectedRevision: 0, now: fixture.clock.now)
            let bearer = try #require(guest["access_token"])
            let id = try #require(try await fixture.startFlow("sign-up", bearer: bearer)["interaction"])
            _ = try await fixture.continueFlow(
                id, node: "details", action: "submit", values: ["email": .string("guest@example.com")])
            let password = "a long enough password"
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: [
                    "code": .string(try await peer.lastCode()), "name": .string("Guest"), "password": .string(password),
                    "password-verify": .string(password),
                ])
            #expect(done.nodeType == "success")
            #expect(done.node["new_user"] == .bool(false), "linked, not created")
            let tokens = try await fixture.redeem(try #require(done.node["code"]?.stringValue), clientID: "app")
            #expect(try TokenFixture.subject(of: tokens) == guestID)
            let user = try #require(try await fixture.provider.store.user(id: guestID))
            #expect(user.email == "guest@example.com" && user.emailVerified && user.name == "Guest")
            #expect(
                try await fixture.provider.store.identities(userID: guestID).map(\.kind).sorted() == [
                    "email", "password",
                ])
            #expect(try await fixture.provider.store.profile(userID: guestID)?.data == ["score": .number(7)])
            // The guest's own refresh token lives on and now carries the new level.
            let refreshed = try await fixture.refresh(try #require(guest["refresh_token"]), clientID: "app")
            #expect(try UnverifiedJWT(try #require(refreshed["id_token"]))[claim: "auth_level"] == .string("verified"))
        }
    }

    @Test("two sign-ups racing to upgrade one guest: exactly one links its address, the other is refused")
    func upgradeRace() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let bearer = try TokenFixture.accessToken(guest)
            var steps: [(interaction: String, code: String)] = []
            for email in ["first@example.com", "second@example.com"] {
                let id = try #require(try await fixture.startFlow("sign-up", bearer: bearer)["interaction"])
                _ = try await fixture.continueFlow(
                    id, node: "details", action: "submit", values: ["email": .string(email)])
                steps.append((id, try await peer.lastCode()))
            }
            let password = "a long enough password"
            let answers = try await withThrowingTaskGroup(of: RecordedResponse.self) { group in
                for step in steps {
                    group.addTask {
                        try await fixture.continueFlow(
                            step.interaction, node: "code", action: "submit",
                            values: [
                                "code": .string(step.code), "password": .string(password),
                                "password-verify": .string(password),
                            ])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.nodeType == "success" }.count == 1)
            // The loser is refused on its step: while both link at once the store refuses the second address
            // (credential_in_use); once the winner has linked, the guest is no longer one (account_has_email).
            let refusals = answers.filter { $0.nodeType == "error" }.map(\.detailCodes)
            #expect(
                refusals == [["email": ["credential_in_use"]]] || refusals == [["email": ["account_has_email"]]],
                "\(refusals)")
            let user = try #require(try await fixture.provider.store.user(id: guestID))
            #expect(["first@example.com", "second@example.com"].contains(user.email ?? ""))
            let other = user.email == "first@example.com" ? "second@example.com" : "first@example.com"
            #expect(try await fixture.provider.store.user(email: other) == nil, "no second account was made")
        }
    }

    @Test("case 1 without a password: a guest proving an address nobody has by email code links it")
    func guestLinksByEmailCode() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let bearer = try #require(guest["access_token"])
            let id = try #require(try await fixture.startFlow("email-code", bearer: bearer)["interaction"])
            _ = try await fixture.continueFlow(
                id, node: "email", action: "submit", values: ["email": .string("new@example.com")])
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(try await peer.lastCode())])
            #expect(done.nodeType == "success")
            let user = try #require(try await fixture.provider.store.user(id: guestID))
            #expect(user.email == "new@example.com" && user.emailVerified && user.passwordHash == nil)
            #expect(try await fixture.provider.store.identities(userID: guestID).map(\.kind) == ["email"])
            #expect(user.authLevel == .verified)
        }
    }

    @Test("case 2: a guest signing in to an existing account gets migration_required, nothing changed")
    func migrationRequired() async throws {
        try await FlowFixture.run { fixture in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let answer = try await Self.signInGrace(fixture, bearer: try TokenFixture.accessToken(guest))
            #expect(answer.status == .ok)
            #expect(answer.nodeType == "error")
            #expect(answer.node["id"]?.stringValue == "credentials")
            #expect(answer.detailCodes == ["email": ["migration_required"]])
            #expect(try await fixture.provider.store.user(id: guestID) != nil)
        }
    }

    @Test(
        "case 2 answered: with allow_migration the account signs in and the guest is deleted, its fields merged with true",
        arguments: [true, false])
    func migration(_ allow: Bool) async throws {
        try await FlowFixture.run { fixture in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            _ = try await fixture.provider.store.writeProfile(
                userID: guestID, data: ["score": .number(7), "nickname": .string("guest")], expectedRevision: 0,
                now: fixture.clock.now)
            _ = try await fixture.provider.store.writeProfile(
                userID: grace.id, data: ["nickname": .string("grace")], expectedRevision: 0, now: fixture.clock.now)

            let done = try await Self.signInGrace(
                fixture, bearer: try TokenFixture.accessToken(guest), extra: [("allow_migration", "\(allow)")])
            #expect(done.nodeType == "success")
            let tokens = try await fixture.redeem(try #require(done.node["code"]?.stringValue), clientID: "app")
            #expect(try TokenFixture.subject(of: tokens) == grace.id)
            #expect(try await fixture.provider.store.user(id: guestID) == nil, "the guest is deleted")
            let refresh = try await fixture.refresh(try #require(guest["refresh_token"]), clientID: "app")
            #expect(refresh.error == "invalid_grant", "and its session ends")
            let profile = try await fixture.provider.store.profile(userID: grace.id)?.data
            #expect(
                profile
                    == (allow
                        ? ["nickname": .string("grace"), "score": .number(7)] : ["nickname": .string("grace")]))
        }
    }

    @Test("case 2 as JSON: allow_migration may be a JSON boolean; any other value is invalid_request")
    func allowMigrationValues() async throws {
        try await FlowFixture.run { fixture in
            var fields = Dictionary(
                uniqueKeysWithValues: TokenFixture.appStartFields().map { ($0.0, JSONValue.string($0.1)) })
            fields["allow_migration"] = .bool(true)
            let json = try await fixture.post(
                "/flows/sign-in", [], headers: [.contentType: "application/json"],
                body: String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self))
            #expect(json.status == .ok)
            let bad = try await fixture.startFlow("sign-in", bearer: nil, extra: [("allow_migration", "yes")])
            #expect(bad.status == .badRequest)
            #expect(bad.node["code"]?.stringValue == "invalid_request")
        }
    }

    @Test("case 3: a user with an address signed in cannot sign up another address: account_has_email, nothing made")
    func signedInUserSignsUp() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let success = try await fixture.signInThroughFlow()
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            let id = try #require(
                try await fixture.startFlow("sign-up", bearer: try TokenFixture.accessToken(tokens))["interaction"])
            _ = try await fixture.continueFlow(
                id, node: "details", action: "submit", values: ["email": .string("second@example.com")])
            let password = "a long enough password"
            let refused = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: [
                    "code": .string(try await peer.lastCode()), "password": .string(password),
                    "password-verify": .string(password),
                ])
            #expect(refused.detailCodes == ["email": ["account_has_email"]])
            #expect(try await fixture.provider.store.user(email: "second@example.com") == nil)
        }
    }

    @Test("case 4: a user signed in who enters another account's credentials gets credential_in_use, nothing changed")
    func credentialInUse() async throws {
        try await FlowFixture.run { fixture in
            let other = try await fixture.provider.accounts.signUp(
                email: "other@example.com", password: "another good password", name: nil, origin: RequestOrigin())
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let success = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string("other@example.com"), "password": .string("another good password")])
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            let refused = try await Self.signInGrace(
                fixture, bearer: try TokenFixture.accessToken(tokens), extra: [("allow_migration", "true")])
            #expect(refused.detailCodes == ["email": ["credential_in_use"]])
            #expect(try await fixture.provider.store.user(id: other.id) != nil)
            // The same user signing in again with their own credentials is no conflict.
            let grace = try await fixture.redeem(
                try #require(try await fixture.signInThroughFlow().node["code"]?.stringValue), clientID: "app")
            let again = try await Self.signInGrace(fixture, bearer: try TokenFixture.accessToken(grace))
            #expect(again.nodeType == "success")
        }
    }

    @Test("case 5 and refusals: no bearer signs in as before; a forged bearer or another client's is refused")
    func bearerRefusals() async throws {
        try await FlowFixture.run { fixture in
            #expect(try await Self.signInGrace(fixture, bearer: nil).nodeType == "success")
            let forged = try await fixture.startFlow("sign-in", bearer: "not-a-token")
            #expect(forged.status == .unauthorized)
            #expect(forged.node["code"]?.stringValue == "invalid_token")
            // A token of the (third-party) native client used to start a flow for the app client: the account-change
            // rule refuses it first.
            let native = try await fixture.signIn()
            let crossed = try await fixture.startFlow("sign-in", bearer: try TokenFixture.accessToken(native))
            #expect(crossed.status == .forbidden)
            #expect(crossed.json["interaction"] == nil)
        }
    }
}
