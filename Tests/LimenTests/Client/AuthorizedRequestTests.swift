import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("authorizedRequest")
struct AuthorizedRequestTests {
    @Test("a 401 with error=\"invalid_token\" causes exactly one refresh and one retry with the new token")
    func invalidTokenRefreshesOnce() async throws {
        let calls = Locked(0)
        let api: TestHTTPServer.Handler = { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            guard call > 1 else {
                return HTTPResponse(
                    status: 401, headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#])
            }
            return HTTPResponse(status: 200, body: Data("data".utf8))
        }
        try await ProviderFixture.with(expiresIn: 3600, routes: ["GET /api": api]) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let response = try await fixture.client.authorizedRequest(HTTPRequest(url: fixture.server.url("api")))
            #expect(response.status == 200)
            #expect(await fixture.tokenRequests() == 1)
            let sent = await fixture.server.log.requests.filter { $0.path == "/api" }.map { $0.header("Authorization") }
            #expect(sent == ["Bearer at-old", "Bearer at-new"])
        }
    }

    @Test("a 401 without error=\"invalid_token\" is returned as is, without a refresh")
    func otherUnauthorized() async throws {
        let api: TestHTTPServer.Handler = { _ in
            HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer realm="api""#])
        }
        try await ProviderFixture.with(expiresIn: 3600, routes: ["GET /api": api]) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let response = try await fixture.client.authorizedRequest(HTTPRequest(url: fixture.server.url("api")))
            #expect(response.status == 401)
            #expect(await fixture.tokenRequests() == 0)
            #expect(await fixture.server.log.count(path: "/api") == 1)
        }
    }

    @Test("without a session it throws notSignedIn and sends nothing")
    func notSignedIn() async throws {
        let transport = RecordingTransport()
        let client = AuthClient(
            configuration: Configuration(
                issuer: URL(string: "http://127.0.0.1:1")!, clientID: "app", store: MemoryStore(), transport: transport)
        )
        await #expect(throws: LimenError.notSignedIn) {
            try await client.authorizedRequest(HTTPRequest(url: URL(string: "http://127.0.0.1:1/api")!))
        }
        #expect(await transport.requests.isEmpty)
    }
}
