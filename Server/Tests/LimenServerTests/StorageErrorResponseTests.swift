import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import Testing

@testable import LimenServer

/// ``StorageError`` answered wherever a route throws it, through Hummingbird's `HTTPResponseError`: one way for JSON
/// endpoints and hosted pages alike.
@Suite("A store failure thrown by any route: 503 for a database that is away, an HTML page for a browser")
struct StorageErrorResponseTests {
    /// The server's outer middleware and routes that throw `error`, at `/json`, `/page` and (as the token endpoint
    /// group does) `/token`.
    private func withRouter(
        throwing error: StorageError,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Router(context: LimenRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ServerErrorLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        router.get("/json") { _, _ -> String in throw error }
        router.get("/page") { _, _ -> String in throw error }
        router.group().add(middleware: OAuthServerErrorMiddleware()).post("/token") { _, _ -> String in throw error }
        try await Application(router: router).test(.router) { client in try await body(client) }
    }

    @Test("an app or script gets RFC 6749's temporarily_unavailable as JSON, with Retry-After and the common headers")
    func jsonAnswer() async throws {
        try await withRouter(throwing: .unavailable("the database cannot be reached")) { client in
            for (uri, method) in [("/json", HTTPRequest.Method.get), ("/token", .post)] {
                try await client.execute(uri: uri, method: method, headers: [.accept: "application/json"]) { response in
                    #expect(response.status == .serviceUnavailable, "\(uri)")
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(response.headers[.contentType] == "application/json")
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                    let body = try JSONDecoder().decode(
                        [String: String].self, from: Data(response.body.readableBytesView))
                    #expect(body["error"] == "temporarily_unavailable")
                    #expect(body["error_description"]?.contains("cannot be reached") == false, "no internals leak")
                }
            }
        }
    }

    @Test("a browser gets a hosted 503 page, with Retry-After and the pages' strict policy")
    func htmlAnswer() async throws {
        try await withRouter(throwing: .diskFull(path: "/var/lib/limen/limen.sqlite")) { client in
            let accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
            try await client.execute(uri: "/page", method: .get, headers: [.accept: accept]) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] == Pages.contentSecurityPolicy)
                let page = String(buffer: response.body)
                #expect(page.contains("Temporarily unavailable"))
                #expect(!page.contains("limen.sqlite"), "the page names no file of the server")
            }
        }
    }

    @Test("any other store failure stays a 500, and the token endpoint's is still RFC 6749's server_error")
    func otherFailures() async throws {
        try await withRouter(throwing: .queryFailed("no such table: users")) { client in
            try await client.execute(uri: "/json", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(response.headers[.retryAfter] == nil)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/token", method: .post) { response in
                #expect(response.status == .internalServerError)
                let body = try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
                #expect(body["error"] == "server_error")
            }
        }
    }
}
