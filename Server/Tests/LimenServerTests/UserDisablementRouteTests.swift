import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A disabled user through the routes: the admin API disabling and enabling them, their sign-in and refresh refused.
@Suite("Disabled users: the admin API, and sign-in and refresh refused")
struct UserDisablementRouteTests {
    /// `POST /admin/users/{id}/{change}` with the admin `token`.
    private static func change(_ change: String, _ id: String, token: String?, in fixture: TokenFixture)
        async throws -> RecordedResponse
    {
        try await fixture.admin(.post, "/admin/users/\(id)/\(change)", token: token)
    }

    /// A refresh of `refreshToken` by the flows' client.
    private static func refresh(_ refreshToken: String, in fixture: TokenFixture) async throws -> RecordedResponse {
        try await fixture.post(
            "/token",
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "app")])
    }

    @Test(
        "a disabled user can neither sign in nor refresh, each refusal recorded; enabled again they sign in",
        arguments: TokenBackend.allCases)
    func disabledUser(_ backend: TokenBackend) async throws {
        try await SecurityEventRouteTests.run(on: backend) { fixture, token in
            let tokens = try await SecurityEventRouteTests.signIn(fixture)
            #expect(tokens.status == .ok)
            let refreshToken = try #require(tokens["refresh_token"])
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))

            #expect(try await Self.change("disable", grace.id, token: nil, in: fixture).status == .unauthorized)
            #expect(try await Self.change("disable", "nobody", token: token, in: fixture).status == .notFound)
            #expect(try await Self.change("disable", grace.id, token: token, in: fixture).status == .noContent)
            #expect(try await Self.change("disable", grace.id, token: token, in: fixture).status == .noContent)
            let disabled = try await SecurityEventRouteTests.events(.adminUserDisabled, in: fixture)
            #expect(disabled.count == 1, "only the change is recorded")
            #expect(disabled.first?.user == grace.id && disabled.first?.actor == "admin_token")

            let refused = try await Self.refresh(refreshToken, in: fixture)
            #expect(refused.status == .badRequest && refused.error == "invalid_grant")

            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let answer = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(answer.status == .forbidden && answer.nodeType == "failure")
            #expect(answer.node["code"]?.stringValue == "access_denied")
            let failed = try await SecurityEventRouteTests.events(.userSignInFailed, in: fixture)
            #expect(failed.first?.user == grace.id && failed.first?.details == #"{"reason":"disabled"}"#)
            #expect(try await SecurityEventRouteTests.events(.userSignedIn, in: fixture).count == 1)

            #expect(try await Self.change("enable", grace.id, token: token, in: fixture).status == .noContent)
            #expect(try await SecurityEventRouteTests.events(.adminUserEnabled, in: fixture).count == 1)
            #expect(try await SecurityEventRouteTests.signIn(fixture).status == .ok)
        }
    }
}
