import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenTestSupport
import Logging
import NIOCore
import Testing

@testable import LimenServer

/// Issue 21 §2: the security log lines (code replay, refresh-token reuse, admin audit) carry the request id, so an
/// operator can follow a caller's report to the line.
@Suite("Security log lines carry the request id")
struct SecurityLogTests {
    private static let requestID = HTTPField.Name("X-Request-Id")!

    @Test("a replayed authorization code and a reused refresh token are logged with the request's id")
    func tokenEndpointLines() async throws {
        let recorded = RecordedLines()
        try await TokenFixture.run(logger: recorded.logger) { fixture in
            let code = try await fixture.issueCode()
            #expect(try await fixture.redeem(code).status == .ok)
            let replay = try await fixture.post(
                "/token",
                FormEncoding.present([
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                    ("client_id", "native"), ("code_verifier", PKCE.fixture.verifier),
                ]),
                headers: [Self.requestID: "replay-1"])
            #expect(replay.error == "invalid_grant")

            // The replay revoked the first code's grant: the refresh chain is another sign-in's.
            let signIn = try await fixture.redeem(try await fixture.issueCode())
            let refreshToken = try #require(signIn.json["refresh_token"]?.stringValue)
            let successor = try await fixture.refresh(refreshToken)
            let next = try #require(successor.json["refresh_token"]?.stringValue)
            #expect(try await fixture.refresh(next).status == .ok, "the successor is used: the chain moved on")
            fixture.clock.advance(by: 3600)
            let reuse = try await fixture.post(
                "/token",
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "native")],
                headers: [Self.requestID: "reuse-1"])
            #expect(reuse.error == "invalid_grant")
        }
        let replayLine = try #require(recorded.first(startingWith: "Authorization code replayed"))
        #expect(replayLine.metadata["hb.request.id"] == "replay-1")
        let reuseLine = try #require(recorded.first(startingWith: "A refresh token was presented after its successor"))
        #expect(reuseLine.metadata["hb.request.id"] == "reuse-1")
    }

    @Test("an admin API change is logged with the request's id")
    func adminAuditLine() async throws {
        let recorded = RecordedLines()
        try await TokenFixture.run(logger: recorded.logger) { fixture in
            let token = try await fixture.installAdminToken()
            let created = try await fixture.client.execute(
                uri: "/admin/users", method: .post,
                headers: [
                    .authorization: "Bearer \(token)", .contentType: "application/json", Self.requestID: "audit-1",
                ],
                body: .init(string: #"{"email":"grace@example.com","password":"a long enough password"}"#)
            ) { $0.status }
            #expect(created == .created)
        }
        let line = try #require(recorded.first(startingWith: "Admin API created a user"))
        #expect(line.metadata["hb.request.id"] == "audit-1")
    }
}
