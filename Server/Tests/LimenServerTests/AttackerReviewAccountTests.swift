import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The attacker's review of issue 19, findings 1, 2, 7 and 8, each replayed as the review made it: every one of these
/// requests succeeded before ``AccountChangeGate``.
@Suite("Attacker's review: account takeover, deletion, claims and native flows by other clients' tokens", .serialized)
struct AttackerReviewAccountTests {
    @Test(
        "finding 1: a third-party app's token can neither start a linking flow for the victim nor unlink their address")
    func takeoverFromOneAccessToken() async throws {
        try await FlowFixture.run { fixture in
            let victim = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let code = try await fixture.issueCode(for: victim, clientID: "native")
            let token = try TokenFixture.accessToken(try await fixture.redeem(code, clientID: "native"))
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]

            for flow in ["sign-up", "email-code", "sign-in"] {
                let linking = try await fixture.post(
                    "/flows/\(flow)",
                    FormEncoding.present([
                        ("client_id", "native"), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid"),
                        ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
                    ]), headers: bearer)
                #expect(linking.status == .forbidden, "\(flow): \(linking.json)")
                #expect(linking.json["interaction"] == nil, "no interaction is made")
            }
            let unlink = try await fixture.send(.delete, "/v1/me/identities/email", bearer: token)
            #expect(unlink.status == .forbidden)
            #expect(try await fixture.provider.store.user(id: victim.id)?.email == FlowFixture.email)
            #expect(try await fixture.provider.store.user(id: victim.id)?.passwordHash != nil)
        }
    }

    @Test("finding 2: a third-party app cannot delete the account with its openid token, even right after sign-in")
    func thirdPartyDeletesTheAccount() async throws {
        try await FlowFixture.run { fixture in
            let victim = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let code = try await fixture.issueCode(for: victim, clientID: "native")
            let token = try TokenFixture.accessToken(try await fixture.redeem(code, clientID: "native"))
            let deleted = try await fixture.send(.delete, "/v1/me", bearer: token)
            #expect(deleted.status == .forbidden)
            #expect(deleted.headers[.wwwAuthenticate]?.contains("error=\"insufficient_scope\"") == true)
            #expect(try await fixture.provider.store.user(id: victim.id) != nil)
        }
    }

    @Test("finding 7: an openid-only token sees no address in /v1/me/identities, as /userinfo shows none")
    func identitiesFollowTheClaimsRule() async throws {
        try await FlowFixture.run { fixture in
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            for (scope, shows) in [("openid", false), ("openid email", true)] {
                let code = try await fixture.issueCode(for: grace, clientID: "native", scope: scope)
                let token = try TokenFixture.accessToken(try await fixture.redeem(code, clientID: "native"))
                let listed = try await fixture.send(.get, "/v1/me/identities", bearer: token)
                #expect(listed.status == .ok)
                let body = String(decoding: listed.body, as: UTF8.self)
                #expect(body.contains(FlowFixture.email) == shows, "\(scope): \(body)")
                #expect(body.contains("\"password\"") && body.contains("\"email\""), "the kinds are listed")
                let userInfo = try await fixture.userInfo(token)
                #expect((userInfo.json["email"] != nil) == shows)
            }
        }
    }

    @Test("finding 7: /auth/me serves only the apple-signin-kit client's tokens")
    func authMeServesOnlyItsClient() async throws {
        try await AppleFixture.run { fixture in
            let user = try #require(try await fixture.tokens.provider.store.user(id: TokenFixture.user.id))
            let code = try await fixture.tokens.issueCode(for: user, clientID: "native", scope: "openid")
            let token = try TokenFixture.accessToken(try await fixture.tokens.redeem(code, clientID: "native"))
            let me = try await fixture.me(token)
            #expect(me.status == .unauthorized)
            #expect(!String(decoding: me.body, as: UTF8.self).contains(TokenFixture.user.email ?? "@"))
            #expect(try await fixture.logout(token).status == .unauthorized)
        }
    }

    @Test("finding 8: a third-party client cannot run a native flow; its failure node points it to /authorize")
    func thirdPartyNativeFlows() async throws {
        try await FlowFixture.run { fixture in
            let started = try await fixture.startFlow(
                "sign-in",
                [
                    ("client_id", "native"), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid"),
                    ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
                ])
            #expect(started.status == .forbidden)
            #expect(started.nodeType == "failure")
            #expect(started.node["code"]?.stringValue == "unauthorized_client")
            #expect(started.node["message"]?.stringValue?.contains("/authorize") == true)
            #expect(started.json["interaction"] == nil)
        }
    }
}
