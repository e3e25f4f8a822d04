import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension ScaleTests {
    @Test("an account deleted through node B no longer refreshes or answers userinfo on node A, at once")
    func deletionAcrossNodes() async throws {
        try await withScaleCluster { cluster in
            let accounts = Accounts(store: cluster.store, hasher: PasswordHasher(parameters: .testing), now: Date.init)
            let user = try await accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            let (nodeA, nodeB) = (cluster.nodePorts[0], cluster.nodePorts[1])

            let started = try await liveFlowStart(port: nodeA, scope: "openid offline_access")
            let interaction = try #require(started.json["interaction"]?.stringValue, "\(started.body)")
            let success = try await liveFlowSubmission(
                port: nodeA, interaction: interaction, node: "credentials", action: "submit",
                values: ["email": .string(SignInFixture.email), "password": .string(SignInFixture.password)])
            let code = try #require(success.json["node"]?.objectValue?["code"]?.stringValue, "\(success.body)")
            let tokens = try await liveForm(
                port: nodeA, "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                    ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
                ])
            let accessToken = try #require(tokens.json["access_token"]?.stringValue, "\(tokens.body)")
            let refreshToken = try #require(tokens.json["refresh_token"]?.stringValue)
            let bearer: HTTPFields = [.authorization: "Bearer \(accessToken)"]
            #expect(try await livePage(port: nodeA, "/userinfo", headers: bearer).status == .ok)

            let deleted = try await livePage(port: nodeB, "/v1/me", method: .delete, headers: bearer)
            #expect(deleted.status == .noContent, "\(deleted.body)")

            #expect(try await livePage(port: nodeA, "/userinfo", headers: bearer).status == .unauthorized)
            let refreshed = try await liveForm(
                port: nodeA, "/token",
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "limen-cli")])
            #expect(refreshed.json["error"] == .string("invalid_grant"), "\(refreshed.body)")
            #expect(try await cluster.store.user(id: user.id) == nil)
        }
    }
}
