import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension ScaleTests {
    @Test("a native sign-in flow started on node A, corrected on node B and finished on A gives a code B redeems")
    func flowAcrossNodes() async throws {
        try await withScaleCluster { cluster in
            let accounts = Accounts(store: cluster.store, hasher: PasswordHasher(parameters: .testing), now: Date.init)
            let user = try await accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            let (nodeA, nodeB) = (cluster.nodePorts[0], cluster.nodePorts[1])

            let started = try await liveFlowStart(port: nodeA, scope: "openid")
            #expect(started.status == .ok, "\(started.body)")
            let interaction = try #require(started.json["interaction"]?.stringValue)
            let node = try #require(started.json["node"]?.objectValue?["id"]?.stringValue)

            let submit = { (port: Int, password: String) in
                try await liveFlowSubmission(
                    port: port, interaction: interaction, node: node, action: "submit",
                    values: ["email": .string(SignInFixture.email), "password": .string(password)])
            }
            let wrong = try await submit(nodeB, "not the password")
            #expect(wrong.json["node"]?.objectValue?["type"] == .string("error"), "\(wrong.body)")
            #expect(wrong.json["interaction"] == .string(interaction), "the same interaction goes on")

            let success = try await submit(nodeA, SignInFixture.password)
            let answer = try #require(success.json["node"]?.objectValue, "\(success.body)")
            #expect(answer["type"] == .string("success"))
            #expect(answer["iss"] == .string(cluster.issuer), "the issuer is the proxy's URL")
            #expect(answer["state"] == .string("s-1"))
            let code = try #require(answer["code"]?.stringValue)

            let exchange = try await liveForm(
                port: nodeB, "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                    ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
                ])
            #expect(exchange.status == .ok, "\(exchange.body)")
            let accessToken = try #require(exchange.json["access_token"]?.stringValue)
            let userInfo = try await livePage(
                port: nodeA, "/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(userInfo.json["sub"] == .string(user.id), "\(userInfo.body)")

            let afterSuccess = try await submit(nodeB, SignInFixture.password)
            #expect(afterSuccess.json["node"]?.objectValue?["type"] == .string("failure"), "\(afterSuccess.body)")
        }
    }
}

/// `POST /flows/sign-in` for the CLI client (state `s-1`, the PKCE fixture's challenge), straight to one node.
func liveFlowStart(port: Int, scope: String) async throws -> Page {
    try await liveForm(
        port: port, "/flows/sign-in",
        [
            ("client_id", "limen-cli"), ("redirect_uri", SignInFixture.cliRedirect), ("scope", scope),
            ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", SignInFixture.challenge),
            ("code_challenge_method", "S256"),
        ])
}

/// `POST /flows/interactions/{id}` with a JSON submission, straight to one node.
func liveFlowSubmission(
    port: Int, interaction: String, node: String, action: String, values: [String: JSONValue]
) async throws -> Page {
    let body = JSONValue.object(["node": .string(node), "action": .string(action), "values": .object(values)])
    return try await livePage(
        port: port, "/flows/interactions/\(interaction)", method: .post, headers: [.contentType: "application/json"],
        body: ByteBuffer(bytes: body.serialized()))
}
