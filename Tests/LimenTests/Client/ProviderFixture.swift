import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import Logging
import TestSupport

/// A discovery document and token endpoint on a real loopback server, plus a client with a stored session.
struct ProviderFixture {
    let server: TestHTTPServer
    let store: any SecureStore
    let clock: TestNow
    let client: AuthClient

    /// A token endpoint answer that rotates the refresh token.
    static let rotated = #"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-new"}"#

    /// Runs `body` with a fixture (see ``start(expiresIn:store:routes:logger:token:)``) and stops its server however
    /// `body` ends.
    static func with<Result>(
        expiresIn: TimeInterval = 10,
        store: any SecureStore = MemoryStore(),
        routes: [String: TestHTTPServer.Handler] = [:],
        logger: Logger = Logger(label: "limen"),
        token: @escaping TestHTTPServer.Handler,
        isolation: isolated (any Actor)? = #isolation,
        run body: (ProviderFixture) async throws -> Result
    ) async throws -> Result {
        let fixture = try await start(expiresIn: expiresIn, store: store, routes: routes, logger: logger, token: token)
        return try await withStopping(fixture, stop: { await $0.server.stop() }, body)
    }

    /// Starts the server with `token` answering `POST /token` and stores a session in `store` whose access token
    /// expires at `expiresIn` seconds from the fixture's start. The client logs to `logger`.
    private static func start(
        expiresIn: TimeInterval = 10,
        store: any SecureStore = MemoryStore(),
        routes: [String: TestHTTPServer.Handler] = [:],
        logger: Logger = Logger(label: "limen"),
        token: @escaping TestHTTPServer.Handler
    ) async throws -> ProviderFixture {
        let issuer = IssuerBox()
        var all = routes
        all["GET /.well-known/openid-configuration"] = { _ in
            let base = await issuer.value
            return .json(
                """
                {"issuer":"\(base)","authorization_endpoint":"\(base)/authorize","token_endpoint":"\(base)/token",
                 "jwks_uri":"\(base)/jwks","userinfo_endpoint":"\(base)/userinfo","revocation_endpoint":"\(base)/revoke"}
                """
            )
        }
        all["POST /token"] = token
        let server = try await TestHTTPServer.start(all)
        await issuer.set(server.baseURL.absoluteString)
        let clock = TestNow()
        let session = TokenSet(
            accessToken: "at-old",
            refreshToken: "rt-old",
            idToken: nil,
            expiresAt: clock.now.addingTimeInterval(expiresIn),
            scope: "openid",
            subject: "alice",
            claims: ["sub": .string("alice"), "email_verified": .bool(true)]
        )
        try await store.write(try JSONEncoder().encode(session), for: "default.session")
        let configuration = Configuration(
            issuer: server.baseURL,
            clientID: "app",
            redirectURI: URL(string: "http://127.0.0.1:1/callback"),
            store: store,
            transport: URLSessionTransport(),
            logger: logger,
            now: { clock.now }
        )
        return ProviderFixture(
            server: server, store: store, clock: clock, client: AuthClient(configuration: configuration))
    }

    /// The session as stored right now.
    func storedSession() async throws -> TokenSet? {
        guard let data = try await store.read("default.session") else { return nil }
        return try JSONDecoder().decode(TokenSet.self, from: data)
    }

    /// How many requests reached the token endpoint.
    func tokenRequests() async -> Int { await server.log.count(path: "/token") }
}

/// Collects events in the order a client emits them.
final class EventRecorder: Sendable {
    private let events = Locked<[AuthEvent]>([])

    init(_ client: AuthClient) {
        client.addEventHandler { [events] event in events.withLock { $0.append(event) } }
    }

    var recorded: [AuthEvent] { events.withLock { $0 } }
}
