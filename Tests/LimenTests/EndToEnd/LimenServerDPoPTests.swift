import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// DPoP-bound tokens (RFC 9449) from Limen Server (the `limen-server` binary on a random loopback port) to a client it
/// registered `--require-dpop`: the SDK signs in, refreshes and calls APIs with proofs, answers the server's nonce
/// demands, and keeps doing so on a device whose clock is ten minutes off.
@Suite("DPoP against Limen Server", .enabled(if: LimenServerPeer.unavailableReason == nil, "limen-server is not built"))
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

    /// A server whose DPoP proofs must carry its nonce when `nonceRequired`, and a DPoP client of it over `transport`
    /// on a device whose clock is `clockOffset` seconds off.
    func withClient(
        nonceRequired: Bool = false,
        clockOffset: TimeInterval = 0,
        _ body: (LimenServerPeer, AuthClient, PassThroughTransport) async throws -> Void
    ) async throws {
        let settings = ["--sign-in-rate-limit", "100/s", "--dpop-nonce-required", nonceRequired ? "on" : "off"]
        try await LimenServerPeer.with(settings: settings, clients: Self.clients) { server in
            let transport = PassThroughTransport()
            var configuration = Configuration(
                issuer: server.issuer, clientID: Self.clientID,
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: MemoryStore(), transport: transport,
                now: { Date().addingTimeInterval(clockOffset) })
            configuration.dpop = SoftwareDPoPKeys()
            try await body(server, AuthClient(configuration: configuration), transport)
        }
    }

    /// `GET /v1/me/totp` (an API taking the access token) through ``AuthClient/authorizedRequest(_:)``: whether the
    /// signed-in user has two-step sign-in on, `nil` when the answer is not 200.
    func me(_ client: AuthClient, _ server: LimenServerPeer) async throws -> Bool? {
        let response = try await client.authorizedRequest(HTTPRequest(url: Self.meURL(server)))
        guard response.status == 200 else { return nil }
        return try JSONValue(parsing: response.body).objectValue?["enabled"]?.boolValue
    }

    static func meURL(_ server: LimenServerPeer) -> URL {
        server.issuer.appendingPathComponent("v1/me/totp")
    }

    @Test(
        "sign-in, /v1/me, UserInfo and refresh all with DPoP proofs; the nonce the server demands is answered",
        arguments: [false, true])
    func signInAndRefresh(nonceRequired: Bool) async throws {
        try await withClient(nonceRequired: nonceRequired) { server, client, transport in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let signedIn = try #require(await client.currentTokens())
            #expect(signedIn.tokenType == "DPoP" && signedIn.isDPoPBound)
            #expect(try await me(client, server) == false)
            #expect(try await client.userInfo().subject == signedIn.subject)

            let refreshed = try #require(try await client.refresh())
            #expect(refreshed != signedIn.accessToken)
            #expect(await client.currentTokens()?.isDPoPBound == true)
            #expect(try await me(client, server) == false)

            let tokenRequests = await transport.requests.filter { $0.url.path.hasSuffix("/token") }
            // With a nonce required, the code exchange is retried once with it, and the refresh sends it at once.
            #expect(tokenRequests.count == (nonceRequired ? 3 : 2))
            #expect(tokenRequests.allSatisfy { $0.headers["DPoP"] != nil })
        }
    }

    @Test("a DPoP-bound token sent as a bearer token, or without its proof, is refused")
    func bearerRefused() async throws {
        try await withClient { server, client, _ in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let token = try #require(await client.currentTokens()?.accessToken)
            let me = Self.meURL(server)
            for scheme in ["Bearer", "DPoP"] {
                let response = try await URLSessionTransport().send(
                    HTTPRequest(url: me, headers: ["Authorization": "\(scheme) \(token)"]))
                #expect(response.status == 401, "\(scheme) without a proof")
            }
        }
    }

    @Test("a flow that carries the session (two-step enrolment) starts with the DPoP-bound token and its proof")
    func flowCarryingSession() async throws {
        try await withClient(nonceRequired: true) { server, client, transport in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let enrolment = try await client.enrolTOTP()
            #expect(enrolment.uri.scheme == "otpauth")
            let start = try #require(await transport.requests.last { $0.url.path.hasSuffix("/flows/totp-enrol") })
            #expect(start.headers["Authorization"]?.hasPrefix("DPoP ") == true && start.headers["DPoP"] != nil)
        }
    }

    @Test("a flow start carrying the session, refused for want of the server's nonce, is retried once with it")
    func flowStartLearnsNonce() async throws {
        try await withClient(nonceRequired: true) { server, client, transport in
            try await client.signIn(email: server.user.email, password: server.user.password)
            // Another client on the same store (an app extension, say): the same session and key, but no nonce yet.
            let other = AuthClient(configuration: client.configuration)
            let enrolment = try await other.enrolTOTP()
            #expect(enrolment.uri.scheme == "otpauth")
            let starts = await transport.requests.filter { $0.url.path.hasSuffix("/flows/totp-enrol") }
            try #require(starts.count == 2, "refused once for the nonce, then accepted")
            let proofs = try starts.map { try UnverifiedJWT(try #require($0.headers["DPoP"])).claims }
            #expect(proofs[0]["nonce"] == nil && proofs[1]["nonce"] != nil)
        }
    }

    @Test(
        "a device clock ten minutes off: sign-in, a refresh when the token is about to expire, not before, API calls",
        arguments: [600.0, -600.0])
    func deviceClockOff(by offset: TimeInterval) async throws {
        try await withClient(clockOffset: offset) { server, client, _ in
            try await client.signIn(email: server.user.email, password: server.user.password)
            let signedIn = try #require(await client.currentTokens())
            #expect(abs(client.configuration.now().timeIntervalSinceNow) < 5, "the client tells the server's time")
            let expiresIn = try #require(signedIn.expiresAt).timeIntervalSinceNow
            #expect(abs(expiresIn - Self.accessTokenLifetime) < 5, "the expiry is in the server's time")
            #expect(try await me(client, server) == false)

            // A token with more time left than asked for is used; one with less is refreshed (both in the server's
            // time: in the device's, the token would be ten minutes from expiry or ten minutes past it).
            let lifetime = Self.accessTokenLifetime
            #expect(try await client.validAccessToken(minimumTimeToLive: lifetime - 30) == signedIn.accessToken)
            let refreshed = try #require(try await client.validAccessToken(minimumTimeToLive: lifetime + 30))
            #expect(refreshed != signedIn.accessToken)
            #expect(try await client.validAccessToken(minimumTimeToLive: lifetime - 30) == refreshed)
            #expect(try await me(client, server) == false)
        }
    }
}
