import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A user's sessions through the admin API: listed, then all ended at once, their tokens refused after.
@Suite("A user's sessions in the admin API: listed, and signed out everywhere")
struct UserSessionRouteTests {
    @Test(
        "the sessions list the user's grant; revoking them all ends its refresh and access tokens, recorded once",
        arguments: TokenBackend.allCases)
    func revokeEverySession(_ backend: TokenBackend) async throws {
        try await SecurityEventRouteTests.run(on: backend) { fixture, token in
            let tokens = try await SecurityEventRouteTests.signIn(fixture)
            let (refreshToken, accessToken) = (
                try #require(tokens["refresh_token"]), try #require(tokens["access_token"])
            )
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let sessions = "/admin/users/\(grace.id)/sessions"
            let revoke = "/admin/users/\(grace.id)/revoke-sessions"

            #expect(try await fixture.admin(.get, sessions, token: nil).status == .unauthorized)
            #expect(try await fixture.admin(.post, revoke, token: nil).status == .unauthorized)
            #expect(try await fixture.admin(.get, "/admin/users/nobody/sessions", token: token).status == .notFound)
            #expect(
                try await fixture.admin(.post, "/admin/users/nobody/revoke-sessions", token: token).status == .notFound)
            let listed = try await fixture.admin(.get, sessions, token: token)
            #expect(listed.status == .ok && listed.headers[.cacheControl] == "no-store")
            let grants = listed.objects(in: "grants")
            #expect(grants.map { $0["client_id"]?.stringValue } == ["app"])
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(refreshToken), "no token is shown")

            #expect(try await fixture.admin(.post, revoke, token: token).status == .noContent)
            let refused = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "app")])
            #expect(refused.status == .badRequest && refused.error == "invalid_grant")
            let userInfo = try await fixture.get("/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(userInfo.status == .unauthorized, "the access token ended with its grant")
            let after = try await fixture.admin(.get, sessions, token: token)
            #expect(after.status == .ok && after.json["grants"] == .array([]))

            let revoked = try await SecurityEventRouteTests.events(.adminSessionsRevoked, in: fixture)
            #expect(revoked.count == 1, "the unknown user's attempt recorded nothing")
            #expect(revoked.first?.user == grace.id && revoked.first?.actor == "admin_token")
            #expect(try await SecurityEventRouteTests.signIn(fixture).status == .ok, "the account stays")
        }
    }
}
