import Foundation
import HTTPTypes
import LimenOIDC
import Testing

@testable import LimenServer

@Suite("require_consent: a native flow asks a third-party client's user, a first-party client skips it")
struct FlowConsentTests {
    /// Starts the sign-in flow for the third-party native client `native` and submits Grace's credentials.
    private static func signIn(_ fixture: TokenFixture) async throws -> (String, RecordedResponse) {
        let started = try await fixture.startFlow(
            "sign-in",
            [
                ("client_id", "native"), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid email"),
                ("state", "s-1"), ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
            ])
        let id = try #require(started["interaction"])
        let answer = try await fixture.continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
        return (id, answer)
    }

    @Test("a third-party client gets a consent node with the scopes; Allow gives a code and is remembered")
    func allow() async throws {
        try await FlowFixture.run { fixture in
            let (id, consent) = try await Self.signIn(fixture)
            #expect(consent.nodeType == "continue")
            #expect(consent.node["id"]?.stringValue == "consent")
            #expect(consent.node["name"]?.stringValue == "Allow access?")
            let labels = consent.collectors.filter { $0["type"]?.stringValue == "LABEL" }.compactMap {
                $0["label"]?.stringValue
            }
            #expect(labels == ["Know who you are on this server", "See your email address"])
            #expect(consent.collectorKeys.suffix(2) == ["allow", "deny"])
            let done = try await fixture.continueFlow(id, node: "consent", action: "allow")
            #expect(done.nodeType == "success")
            #expect(
                try await fixture.redeem(try #require(done.node["code"]?.stringValue), clientID: "native").status == .ok
            )
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(
                try await fixture.provider.store.grantedScopes(subject: user.id, clientID: "native") == [
                    "openid", "email",
                ])
            let (_, again) = try await Self.signIn(fixture)
            #expect(again.nodeType == "success", "consent given before is not asked again")
        }
    }

    @Test("Deny ends the interaction with access_denied, grants nothing, and the interaction cannot go on")
    func deny() async throws {
        try await FlowFixture.run { fixture in
            let (id, _) = try await Self.signIn(fixture)
            let denied = try await fixture.continueFlow(id, node: "consent", action: "deny")
            #expect(denied.status == .forbidden)
            #expect(denied.node["code"]?.stringValue == "access_denied")
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.grantedScopes(subject: user.id, clientID: "native").isEmpty)
            let after = try await fixture.continueFlow(id, node: "consent", action: "allow")
            #expect(after.node["code"]?.stringValue == "interaction_finished")
        }
    }

    @Test("on the consent node another button or a stale node is refused there, and nothing is granted")
    func consentRefusals() async throws {
        try await FlowFixture.run { fixture in
            let (id, _) = try await Self.signIn(fixture)
            let stale = try await fixture.continueFlow(id, node: "credentials", action: "submit")
            #expect(stale.nodeType == "error" && stale.node["id"]?.stringValue == "consent")
            let unknown = try await fixture.continueFlow(id, node: "consent", action: "submit")
            #expect(unknown.nodeType == "error" && unknown.node["id"]?.stringValue == "consent")
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.grantedScopes(subject: user.id, clientID: "native").isEmpty)
        }
    }

    @Test("a first-party client skips the consent node: the credentials give the code at once")
    func firstPartySkips() async throws {
        try await FlowFixture.run { fixture in
            let answer = try await fixture.signInThroughFlow()
            #expect(answer.nodeType == "success")
        }
    }
}
