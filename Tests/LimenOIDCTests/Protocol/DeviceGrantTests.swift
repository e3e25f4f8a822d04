import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("Device authorization grant (RFC 8628)")
struct DeviceGrantTests {
    static let authorization = DeviceAuthorization(
        deviceCode: "dc-1",
        userCode: "ABCD-EFGH",
        verificationURI: URL(string: "https://id.example.com/device")!,
        expiresIn: 600,
        interval: 5
    )
    static let tokens = #"{"access_token":"at-1","token_type":"Bearer","expires_in":60,"id_token":"x.y.z"}"#

    /// A token endpoint that answers each poll with the next scripted response.
    func withScriptedServer(
        _ script: [HTTPResponse],
        _ body: (TokenClient, TestHTTPServer) async throws -> Void
    ) async throws {
        let answers = Locked(script)
        let routes: [String: TestHTTPServer.Handler] = [
            "POST /token": { _ in answers.withLock { $0.isEmpty ? HTTPResponse(status: 500) : $0.removeFirst() } },
            "POST /device_authorization": { _ in
                .json(
                    #"{"device_code":"dc-1","user_code":"ABCD-EFGH","verification_uri":"https://id.example.com/device","expires_in":600}"#
                )
            },
        ]
        try await TestHTTPServer.withServer(routes) { server in
            let client = TokenClient(
                metadata: server.metadata(),
                authentication: .none(clientID: "tv"),
                transport: URLSessionTransport()
            )
            try await body(client, server)
        }
    }

    static func pending(_ error: String) -> HTTPResponse { .json(#"{"error":"\#(error)"}"#, status: 400) }

    @Test("starting returns the user code, with the default 5 s interval when none is given")
    func start() async throws {
        try await withScriptedServer([]) { client, server in
            let authorization = try await client.authorizeDevice(scopes: ["profile"])
            #expect(authorization.userCode == "ABCD-EFGH")
            #expect(authorization.interval == 5)
            let form = try #require(await server.log.requests.first).form
            #expect(form["scope"] == "openid profile")
            #expect(form["client_id"] == "tv")
        }
    }

    @Test("authorization_pending waits one interval; slow_down adds 5 s to every later wait")
    func pendingAndSlowDown() async throws {
        let script = [
            Self.pending("authorization_pending"), Self.pending("slow_down"), Self.pending("authorization_pending"),
            .json(Self.tokens),
        ]
        try await withScriptedServer(script) { client, server in
            let waits = TestClock()
            let response = try await client.pollDeviceToken(Self.authorization, now: { TestNow().now }, clock: waits)
            #expect(response.accessToken == "at-1")
            #expect(waits.recorded == [.seconds(5), .seconds(5), .seconds(10), .seconds(10)])
            let form = try #require(await server.log.requests.first).form
            #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
            #expect(form["device_code"] == "dc-1")
        }
    }

    @Test(
        "expired_token and access_denied end the polling with that error",
        arguments: ["expired_token", "access_denied"])
    func terminalErrors(error: String) async throws {
        try await withScriptedServer([Self.pending("authorization_pending"), Self.pending(error)]) { client, server in
            let expected = OIDCError.oauth(OAuthError(error: .init(rawValue: error), httpStatus: 400))
            await #expect(throws: expected) {
                try await client.pollDeviceToken(Self.authorization, now: { TestNow().now }, clock: TestClock())
            }
            #expect(await server.log.count(path: "/token") == 2)
        }
    }

    @Test("polling stops with expired_token once the device code's lifetime has passed")
    func localExpiry() async throws {
        try await withScriptedServer(Array(repeating: Self.pending("authorization_pending"), count: 200)) {
            client, server in
            let clock = TestNow()
            let expected = OIDCError.oauth(
                OAuthError(error: .expiredToken, errorDescription: "the device code expired"))
            await #expect(throws: expected) {
                let waits = TestClock { duration in clock.advance(by: TimeInterval(duration.components.seconds)) }
                return try await client.pollDeviceToken(Self.authorization, now: { clock.now }, clock: waits)
            }
            #expect(await server.log.count(path: "/token") == 119)
        }
    }

    @Test("a provider without a device endpoint is unsupported")
    func unsupported() async throws {
        try await withScriptedServer([]) { client, server in
            var metadata = server.metadata()
            metadata.deviceAuthorizationEndpoint = nil
            let bare = TokenClient(
                metadata: metadata, authentication: .none(clientID: "tv"), transport: URLSessionTransport())
            await #expect(throws: OIDCError.unsupported("the device authorization grant")) {
                try await bare.authorizeDevice(scopes: [])
            }
        }
    }
}
