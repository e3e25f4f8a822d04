import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// DPoP-bound tokens (RFC 9449) from Limen Server (the `limen-server` binary on a random loopback port) to a client it
/// registered `--require-dpop`: the SDK signs in, refreshes and calls APIs with proofs, answers the server's nonce
/// demands, and keeps doing so on a device whose clock is ten minutes off.
@Suite(
    "DPoP-bound tokens against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerDPoPTests {
    static let clientID = "dpop-app"
    /// The access token lifetime of the client, in seconds.
    static let accessTokenLifetime: TimeInterval = 300
    static let clients = [
        [
            "--id", clientID, "--native", "--first-party", "--require-dpop", "--redirect-uri",
            "http://127.0.0.1/callback", "--access-token-ttl", "\(Int(accessTokenLifetime))",
        ]
    ]

    /// The device's clock: the real time, `offset` seconds off, moved on by the test.
    final class DeviceClock: Sendable {
        private let offset = Locked<TimeInterval>(0)

        init(offBy seconds: TimeInterval) {
            offset.withLock { $0 = seconds }
        }

        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

        /// Lets `seconds` pass on the device only.
        func advance(by seconds: TimeInterval) {
            offset.withLock { $0 += seconds }
        }
    }

    /// A server whose DPoP proofs must carry its nonce when `nonceRequired`, and a DPoP client of it over `transport`
    /// on a device whose clock is `clock`.
    func withClient(
        nonceRequired: Bool = false,
        clock: DeviceClock = DeviceClock(offBy: 0),
        _ body: (LimenServerPeer, AuthClient, PassThroughTransport) async throws -> Void
    ) async throws {
        let settings = ["--sign-in-rate-limit", "100/s", "--dpop-nonce-required", nonceRequired ? "on" : "off"]
        try await LimenServerPeer.with(settings: settings, clients: Self.clients) { server in
            let transport = PassThroughTransport()
            var configuration = Configuration(
                issuer: server.issuer, clientID: Self.clientID,
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: MemoryStore(), transport: transport,
                now: { clock.now })
            configuration.dpop = SoftwareDPoPKeys()
            try await body(server, AuthClient(configuration: configuration), transport)
        }
    }

    /// `GET /v1/me` through ``AuthClient/authorizedRequest(_:)``: the signed-in user's email.
    func me(_ client: AuthClient, _ server: LimenServerPeer) async throws -> String? {
        let response = try await client.authorizedRequest(
            HTTPRequest(url: server.issuer.appendingPathComponent("v1/me"), headers: ["Accept": "application/json"]))
        #expect(response.status == 200)
        return try JSONValue(parsing: response.body).objectValue?["email"]?.stringValue
    }

    @Test(
        "sign-in, /v1/me, UserInfo and refresh all with DPoP proofs; the nonce the server demands is answered",
        arguments: [false, true])
    func signInAndRefresh(nonceRequired: Bool) async throws {
        try await withClient(nonceRequired: nonceRequired) { server, client, transport in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let signedIn = try #require(await client.currentTokens())
            #expect(signedIn.tokenType == "DPoP" && signedIn.isDPoPBound)
            #expect(try await me(client, server) == server.user.email)
            #expect(try await client.userInfo().subject == signedIn.subject)

            let refreshed = try #require(try await client.refresh())
            #expect(refreshed != signedIn.accessToken)
            #expect(await client.currentTokens()?.isDPoPBound == true)
            #expect(try await me(client, server) == server.user.email)

            let tokenRequests = await transport.requests.filter { $0.url.path.hasSuffix("/token") }
            #expect(tokenRequests.count == (nonceRequired ? 4 : 2), "a code exchange and a refresh, each retried once")
            #expect(tokenRequests.allSatisfy { $0.headers["DPoP"] != nil })
        }
    }

    @Test("a DPoP-bound token sent as a bearer token, or without its proof, is refused")
    func bearerRefused() async throws {
        try await withClient { server, client, _ in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let token = try #require(await client.currentTokens()?.accessToken)
            let me = server.issuer.appendingPathComponent("v1/me")
            for scheme in ["Bearer", "DPoP"] {
                let response = try await URLSessionTransport().send(
                    HTTPRequest(url: me, headers: ["Authorization": "\(scheme) \(token)"]))
                #expect(response.status == 401, "\(scheme) without a proof")
            }
        }
    }

    @Test(
        "a device clock ten minutes off: sign-in, a refresh when the token is about to expire, not before, and API calls",
        arguments: [600.0, -600.0])
    func deviceClockOff(by offset: TimeInterval) async throws {
        let clock = DeviceClock(offBy: offset)
        try await withClient(clock: clock) { server, client, _ in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let signedIn = try #require(await client.currentTokens())
            #expect(abs(client.configuration.now().timeIntervalSinceNow) < 5, "the client tells the server's time")
            let expiresIn = try #require(signedIn.expiresAt).timeIntervalSinceNow
            #expect(abs(expiresIn - Self.accessTokenLifetime) < 5, "the expiry is in the server's time")
            #expect(try await me(client, server) == server.user.email)

            // Thirty seconds before the refresh margin (the leeway): the token is still used.
            let leeway = client.configuration.leeway
            clock.advance(by: Self.accessTokenLifetime - leeway - 30)
            #expect(try await client.validAccessToken() == signedIn.accessToken)
            // Thirty seconds into the margin: refreshed.
            clock.advance(by: 60)
            let refreshed = try #require(try await client.validAccessToken())
            #expect(refreshed != signedIn.accessToken)
            #expect(try await me(client, server) == server.user.email)
        }
    }
}
