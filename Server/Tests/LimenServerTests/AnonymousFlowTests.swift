import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The anonymous flow: a guest with no identity, auth_level in every token, the level rising on refresh")
struct AnonymousFlowTests {
    /// Starts the `anonymous` flow, presses its button and redeems the success code.
    private static func signInAnonymously(_ fixture: TokenFixture) async throws -> RecordedResponse {
        let started = try await fixture.startFlow("anonymous")
        #expect(started.status == .ok)
        #expect(started.node["id"]?.stringValue == "guest")
        #expect(started.collectorKeys == ["submit", "sign-in"])
        let id = try #require(started["interaction"])
        let success = try await fixture.continueFlow(id, node: "guest", action: "submit")
        #expect(success.nodeType == "success")
        #expect(success.node["new_user"] == .bool(true))
        let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
        #expect(tokens.status == .ok)
        return tokens
    }

    @Test(
        "each run makes a new user without email or identity, level guest in the ID token, access token and userinfo",
        arguments: TokenBackend.allCases)
    func guest(_ backend: TokenBackend) async throws {
        try await FlowFixture.run(on: backend) { fixture in
            let usersBefore = try await fixture.provider.store.users().count
            let tokens = try await Self.signInAnonymously(fixture)
            let idToken = try await fixture.idTokenValidator(clientID: "app").validate(
                try #require(tokens["id_token"]), nonce: "n-1")
            let idClaims = try UnverifiedJWT(try #require(tokens["id_token"])).claims
            #expect(idClaims["auth_level"] == .string("guest"))
            #expect(idClaims["email"] == nil, "the email scope gives nothing when there is no address")
            let accessToken = try #require(tokens["access_token"])
            #expect(try UnverifiedJWT(accessToken)[claim: "auth_level"] == .string("guest"))
            let info = try await fixture.userInfo(accessToken)
            #expect(info.status == .ok)
            #expect(info.json["sub"]?.stringValue == idToken.subject)
            #expect(info.json["auth_level"] == .string("guest"))
            #expect(info.json["email"] == nil)

            let user = try #require(try await fixture.provider.store.user(id: idToken.subject))
            #expect(user.email == nil && user.passwordHash == nil && user.isAnonymous)
            #expect(try await fixture.provider.store.identities(userID: user.id).isEmpty)

            let second = try await Self.signInAnonymously(fixture)
            let secondSubject = try UnverifiedJWT(try #require(second["id_token"])).subject
            #expect(secondSubject != idToken.subject)
            #expect(try await fixture.provider.store.users().count == usersBefore + 2)
        }
    }

    @Test("after the guest links an address and a password, the next refresh carries the new level, same subject")
    func levelRisesOnRefresh() async throws {
        try await FlowFixture.run { fixture in
            let tokens = try await Self.signInAnonymously(fixture)
            let subject = try TokenFixture.subject(of: tokens)
            let linked = try await fixture.provider.store.linkEmail(
                "guest@example.com", passwordHash: "hash", name: nil, emailVerified: false, toAnonymousUser: subject)
            #expect(linked)

            let refreshed = try await fixture.refresh(try #require(tokens["refresh_token"]), clientID: "app")
            #expect(refreshed.status == .ok)
            let claims = try UnverifiedJWT(try #require(refreshed["id_token"])).claims
            #expect(claims["sub"] == .string(subject))
            #expect(claims["auth_level"] == .string("unverified"))
            #expect(claims["email"] == .string("guest@example.com"))
            #expect(
                try UnverifiedJWT(try #require(refreshed["access_token"]))[claim: "auth_level"] == .string("unverified")
            )

            var user = try #require(try await fixture.provider.store.user(id: subject))
            user.emailVerified = true
            try await fixture.provider.store.updateUser(user)
            let again = try await fixture.refresh(try #require(refreshed["refresh_token"]), clientID: "app")
            #expect(try UnverifiedJWT(try #require(again["id_token"]))[claim: "auth_level"] == .string("verified"))
        }
    }

    @Test("a user with a password is unverified until the address is proved, then verified")
    func passwordUserLevels() async throws {
        try await FlowFixture.run { fixture in
            let success = try await fixture.signInThroughFlow()
            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            #expect(try UnverifiedJWT(try #require(tokens["id_token"]))[claim: "auth_level"] == .string("unverified"))
            let info = try await fixture.userInfo(try #require(tokens["access_token"]))
            #expect(info.json["auth_level"] == .string("unverified"))
        }
    }

    @Test("with sign-up turned off the anonymous flow is refused and makes nobody")
    func signUpDisabled() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }
        try await FlowFixture.run(configure: configure) { fixture in
            let before = try await fixture.provider.store.users().count
            let answer = try await fixture.startFlow("anonymous")
            #expect(answer.status == .forbidden)
            #expect(answer.node["code"]?.stringValue == "sign_up_disabled")
            #expect(try await fixture.provider.store.users().count == before)
        }
    }

    @Test("guests are made at the sign-in rate per client address: past the burst, 429 with Retry-After and no user")
    func rateLimited() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.signInRateLimit = RateLimit(burst: 2, perSecond: 1) }
        try await FlowFixture.run(configure: configure) { fixture in
            let before = try await fixture.provider.store.users().count
            var statuses: [HTTPTypes.HTTPResponse.Status] = []
            for _ in 0..<3 {
                let id = try #require(try await fixture.startFlow("anonymous")["interaction"])
                let answer = try await fixture.continueFlow(id, node: "guest", action: "submit")
                statuses.append(answer.status)
                if answer.status == .tooManyRequests { #expect(answer.headers[.retryAfter] != nil) }
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
            #expect(try await fixture.provider.store.users().count == before + 2)
        }
    }
}
