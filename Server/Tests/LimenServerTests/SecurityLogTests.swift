import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenTestSupport
import Logging
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

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

@Suite("Every 500 is logged with the request id")
struct ServerErrorLogTests {
    private struct Plain: Error {}

    /// A value whose encoding fails.
    private struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws { throw Plain() }
    }

    /// Routes answering 500 in each way a route can, a 503 and a 200, behind the request-id and server-error middleware.
    private func withRouter(
        logger: Logger,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Router(context: LimenRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ServerErrorLogMiddleware())
        router.get("/thrown/:secret") { _, _ -> String in throw HTTPError(.internalServerError) }
        router.get("/returned") { _, _ in Response(status: .internalServerError) }
        router.get("/plain") { _, _ -> String in throw Plain() }
        router.get("/busy") { _, _ -> String in throw HTTPError(.serviceUnavailable) }
        router.get("/fine") { _, _ in "fine" }
        router.get("/unencodable") { _, _ in Responses.json(encoding: Unencodable()) }
        try await Application(router: router, logger: logger).test(.router) { client in try await body(client) }
    }

    @Test("a thrown, a returned and a plain error's 500 each log one line with the id and the route, never the path")
    func logsEach500() async throws {
        let recorded = RecordedLines()
        let name = try #require(HTTPField.Name("X-Request-Id"))
        try await withRouter(logger: recorded.logger) { client in
            for (path, id) in [("/thrown/s3cret", "t-1"), ("/returned", "r-1"), ("/plain", "p-1")] {
                try await client.execute(uri: path, method: .get, headers: [name: id]) { response in
                    #expect(response.status == .internalServerError)
                }
            }
            for path in ["/busy", "/fine"] {
                try await client.execute(uri: path, method: .get, headers: [name: "quiet"]) { _ in }
            }
        }
        let lines = recorded.lines.withLock { $0 }.filter { $0.message == "Answered 500 server_error" }
        #expect(lines.map { $0.metadata["hb.request.id"] } == ["t-1", "r-1", "p-1"])
        #expect(lines.first?.metadata["route"] == "/thrown/{secret}")
        #expect(!lines.contains { "\($0.metadata)".contains("s3cret") }, "the path's values are not logged")
        #expect(lines.last?.metadata["error_type"] == "Plain")
    }

    @Test("an answer that cannot be encoded is a logged 500 server_error, never a 200 {}")
    func unencodableAnswer() async throws {
        let recorded = RecordedLines()
        let name = try #require(HTTPField.Name("X-Request-Id"))
        try await withRouter(logger: recorded.logger) { client in
            try await client.execute(uri: "/unencodable", method: .get, headers: [name: "u-1"]) { response in
                #expect(response.status == .internalServerError)
                let body = try JSONValue(parsing: Data(response.body.readableBytesView))
                #expect(body.objectValue?["error"] == .string("server_error"))
            }
        }
        let lines = recorded.lines.withLock { $0 }.filter { $0.message == "Answered 500 server_error" }
        #expect(lines.map { $0.metadata["hb.request.id"] } == ["u-1"])
    }
}
