import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The host app's side of an app-to-app sign-in (``AuthClient/appToAppRequest(for:)``, ``AppToAppRequest``) against a
/// provider stand-in answering `POST /authorize/app2app` and `POST /authorize/app2app/approve` as Limen Server does.
@Suite("App-to-app requests on the host")
struct AppToAppRequestTests {
    static let query =
        "client_id=requester&redirect_uri=https%3A%2F%2Frequesting.example%2Fcb&code_challenge=E9Mel&"
        + "code_challenge_method=S256&state=st%2B1&nonce=n1&scope=openid%20profile&response_type=code"
    static let described = """
        {"client": {"id": "requester", "name": "Requesting App", "logo_uri": "https://requesting.example/logo.png"},
         "scopes": ["openid", "profile"], "consent_required": true, "approval": "ap-1"}
        """
    static let approved = #"{"redirect": "https://requesting.example/cb?code=c1&state=st%2B1&iss=x"}"#

    /// Runs `body` with a provider whose app-to-app routes answer `describe` and `approve`.
    func withProvider(
        describe: @escaping TestHTTPServer.Handler = answering(.json(described)),
        approve: @escaping TestHTTPServer.Handler = answering(.json(approved)),
        _ body: (ProviderFixture) async throws -> Void
    ) async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["POST /authorize/app2app": describe, "POST /authorize/app2app/approve": approve]
        ) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            try await body(fixture)
        }
    }

    /// A handler that always answers `response`.
    static func answering(_ response: HTTPResponse) -> TestHTTPServer.Handler {
        { _ in response }
    }

    /// The universal link the host app gets: the fixture's authorization endpoint with the requesting app's query.
    func link(_ fixture: ProviderFixture, query: String = AppToAppRequestTests.query) -> URL {
        URL(string: fixture.server.url("authorize").absoluteString + "?" + query)!
    }

    /// The JSON object a request to `path` carried, in arrival order.
    func sentBodies(_ fixture: ProviderFixture, path: String) async -> [[String: JSONValue]] {
        await fixture.server.log.requests.filter { $0.path == path }.compactMap {
            (try? JSONValue(parsing: $0.body))?.objectValue
        }
    }

    @Test("the link's query goes to the provider with the session's token, and its answer says who asks and for what")
    func reads() async throws {
        try await withProvider { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            #expect(request.clientID == "requester")
            #expect(request.clientName == "Requesting App")
            #expect(request.logoURL == URL(string: "https://requesting.example/logo.png"))
            #expect(request.scopes == ["openid", "profile"])
            #expect(request.consentRequired)
            let sent = await fixture.server.log.requests.filter { $0.path == "/authorize/app2app" }
            #expect(sent.map { $0.header("Authorization") } == ["Bearer at-old"])
            #expect(sent.map { $0.header("Content-Type") } == ["application/json"])
            #expect(await sentBodies(fixture, path: "/authorize/app2app") == [["request": .string(Self.query)]])
        }
    }

    @Test("a client without a name or a logo is named by its ID")
    func unnamed() async throws {
        let bare = #"{"client": {"id": "requester"}, "scopes": ["openid"], "consent_required": false, "approval": "a"}"#
        try await withProvider(describe: Self.answering(.json(bare))) { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            #expect(request.clientName == "requester")
            #expect(request.logoURL == nil)
            #expect(!request.consentRequired)
        }
    }

    @Test("approve and deny send the approval with the decision and return the provider's redirect to the requester")
    func decides() async throws {
        let denied = #"{"redirect": "https://requesting.example/cb?error=access_denied&state=st%2B1&iss=x"}"#
        let approve: TestHTTPServer.Handler = { request in
            let decision = (try? JSONValue(parsing: request.body))?.objectValue?["decision"]?.stringValue
            return .json(decision == "deny" ? denied : Self.approved)
        }
        try await withProvider(approve: approve) { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            let redirect = try await request.approve()
            #expect(redirect.absoluteString == "https://requesting.example/cb?code=c1&state=st%2B1&iss=x")
            #expect(try await request.deny().absoluteString.contains("error=access_denied"))
            let sent = await sentBodies(fixture, path: "/authorize/app2app/approve")
            #expect(
                sent == [
                    ["approval": .string("ap-1"), "decision": .string("approve")],
                    ["approval": .string("ap-1"), "decision": .string("deny")],
                ])
            let tokens = await fixture.server.log.requests.filter { $0.path == "/authorize/app2app/approve" }
                .map { $0.header("Authorization") }
            #expect(tokens == ["Bearer at-old", "Bearer at-old"])
        }
    }

    @Test(
        "a link that is not an authorization request to this provider is refused before anything is sent",
        arguments: [
            ("https://evil.example/authorize?\(AppToAppRequestTests.query)", "another host"),
            ("PORT/authorize?\(AppToAppRequestTests.query)", "another port"),
            ("BASE/authorize/app2app?\(AppToAppRequestTests.query)", "another path"),
            ("BASE/authorise?\(AppToAppRequestTests.query)", "a look-alike path"),
            ("BASE/?\(AppToAppRequestTests.query)", "the issuer itself"),
            ("BASE/authorize", "no query"),
            ("BASE/authorize?redirect_uri=https%3A%2F%2Frequesting.example%2Fcb&state=s", "no client_id"),
            ("BASE/authorize?client_id=&redirect_uri=https%3A%2F%2Frequesting.example%2Fcb", "an empty client_id"),
            ("BASE/authorize?client_id=requester&state=s", "no redirect_uri"),
        ])
    func hostileLinks(link: String, reason: String) async throws {
        try await withProvider { fixture in
            let base = fixture.server.baseURL.absoluteString
            let otherPort = "http://127.0.0.1:\((fixture.server.baseURL.port ?? 0) == 1 ? 2 : 1)"
            let url = try #require(
                URL(
                    string: link.replacingOccurrences(of: "BASE", with: base).replacingOccurrences(
                        of: "PORT", with: otherPort)))
            let error = await #expect(throws: LimenError.self, Comment(rawValue: reason)) {
                try await fixture.client.appToAppRequest(for: url)
            }
            guard case .appToApp(.notAnAuthorizationRequest)? = error else {
                Issue.record("\(reason): \(String(describing: error))")
                return
            }
            #expect(await fixture.server.log.count(path: "/authorize/app2app") == 0)
        }
    }

    /// A refusal as the provider sends it, and the error it must become.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let status: Int
        let body: String
        var challenge: String? = nil
        let expected: LimenError

        var testDescription: String { "\(status) \(body) → \(expected.code)" }

        func response() -> HTTPResponse {
            .json(body, status: status, headers: challenge.map { ["WWW-Authenticate": $0] } ?? [:])
        }
    }

    static func refused(_ code: OAuthError.ErrorCode, _ status: Int, description: String? = nil) -> LimenError {
        .appToApp(.refused(OAuthError(error: code, errorDescription: description, httpStatus: status)))
    }

    static let refusals: [Refusal] = [
        Refusal(
            status: 403, body: #"{"error": "insufficient_scope", "error_description": "openid needed"}"#,
            challenge: #"Bearer error="insufficient_scope""#,
            expected: refused(.init(rawValue: "insufficient_scope"), 403, description: "openid needed")),
        Refusal(
            status: 403, body: #"{"error": "unauthorized_client"}"#, expected: refused(.unauthorizedClient, 403)),
        Refusal(
            status: 401, body: "", challenge: #"Bearer error="invalid_client", error_description="not a host""#,
            expected: refused(.invalidClient, 401, description: "not a host")),
        Refusal(status: 400, body: #"{"error": "invalid_request"}"#, expected: refused(.invalidRequest, 400)),
        Refusal(
            status: 400, body: #"{"error": "invalid_client", "error_description": "unknown client"}"#,
            expected: refused(.invalidClient, 400, description: "unknown client")),
        Refusal(status: 409, body: #"{"error": "login_required"}"#, expected: .appToApp(.loginRequired)),
        Refusal(status: 400, body: #"{"error": "invalid_grant"}"#, expected: .appToApp(.approvalExpired)),
        Refusal(status: 500, body: "", expected: .appToApp(.server(status: 500))),
        Refusal(status: 409, body: #"{"error": "conflict"}"#, expected: .appToApp(.server(status: 409))),
        Refusal(
            status: 200, body: #"{"scopes": []}"#,
            expected: .appToApp(
                .malformedResponse("the request lacks client.id, scopes, consent_required or approval"))),
        Refusal(
            status: 200, body: "[]", expected: .appToApp(.malformedResponse("the answer is not a JSON object"))),
    ]

    @Test("each refusal of the request becomes its error, the session kept", arguments: refusals)
    func describeRefusals(refusal: Refusal) async throws {
        try await withProvider(describe: Self.answering(refusal.response())) { fixture in
            await #expect(throws: refusal.expected) { try await fixture.client.appToAppRequest(for: link(fixture)) }
            #expect(fixture.client.state.phase == .signedIn)
        }
    }

    @Test("each refusal of the decision becomes its error", arguments: refusals.filter { $0.status != 200 })
    func approveRefusals(refusal: Refusal) async throws {
        try await withProvider(approve: Self.answering(refusal.response())) { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            await #expect(throws: refusal.expected) { try await request.approve() }
        }
    }

    @Test("the refusals' codes, retries and reauthentication")
    func errorTraits() {
        #expect(LimenError.appToApp(.loginRequired).requiresReauthentication)
        #expect(LimenError.appToApp(.loginRequired).code == "app_to_app.login_required")
        #expect(LimenError.appToApp(.approvalExpired).code == "app_to_app.approval_expired")
        #expect(!LimenError.appToApp(.approvalExpired).isRetryable)
        #expect(LimenError.appToApp(.server(status: 503)).isRetryable)
        #expect(!LimenError.appToApp(.server(status: 409)).isRetryable)
        #expect(Self.refused(.temporarilyUnavailable, 400).isRetryable)
        #expect(Self.refused(.invalidClient, 400).code == "app_to_app.refused")
        #expect(LimenError.appToApp(.notAnAuthorizationRequest("x")).errorDescription?.isEmpty == false)
    }

    @Test("a redirect that does not go to the requesting app's redirect URI is not returned")
    func foreignRedirect() async throws {
        let foreign = #"{"redirect": "https://evil.example/cb?code=c1&state=st%2B1"}"#
        try await withProvider(approve: Self.answering(.json(foreign))) { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            await #expect(
                throws: LimenError.appToApp(
                    .malformedResponse("the redirect does not go to the requesting app's redirect URI"))
            ) { try await request.approve() }
        }
    }

    @Test("a token the provider no longer honours is refreshed once; refused again, the session has expired")
    func invalidToken() async throws {
        let expired: TestHTTPServer.Handler = { _ in
            HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        try await withProvider(describe: expired) { fixture in
            await #expect(throws: LimenError.sessionExpired) {
                try await fixture.client.appToAppRequest(for: link(fixture))
            }
            let tokens = await fixture.server.log.requests.filter { $0.path == "/authorize/app2app" }
                .map { $0.header("Authorization") }
            #expect(tokens == ["Bearer at-old", "Bearer at-new"])
            #expect(await fixture.tokenRequests() == 1)
        }
    }

    @Test("nobody signed in on the host: notSignedIn, and nothing is sent")
    func notSignedIn() async throws {
        try await withProvider { fixture in
            let signedOut = AuthClient(
                configuration: Configuration(
                    issuer: fixture.server.baseURL, clientID: "host", store: MemoryStore(),
                    transport: URLSessionTransport()))
            await #expect(throws: LimenError.notSignedIn) { try await signedOut.appToAppRequest(for: link(fixture)) }
            #expect(await fixture.server.log.count(path: "/authorize/app2app") == 0)
        }
    }

    @Test("a provider that stopped answering is a network error")
    func network() async throws {
        try await withProvider { fixture in
            let request = try await fixture.client.appToAppRequest(for: link(fixture))
            await fixture.server.stop()
            let error = await #expect(throws: LimenError.self) { try await request.approve() }
            guard case .network? = error else {
                Issue.record("not a network error: \(String(describing: error))")
                return
            }
        }
    }
}
