import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// PingDavinci's `user()` calls on ``CurrentUser`` against Limen Server: the `limen-server` binary on a random loopback
/// port, signed in through the native `sign-in` flow, every request the SDK sends recorded by a pass-through transport.
@Suite(
    "client.user's session calls against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerCurrentUserTests {
    /// A server, a client of the seeded native client `limen-cli` over `transport`, and the provider's metadata.
    struct Fixture {
        let server: LimenServerPeer
        let client: AuthClient
        let transport: PassThroughTransport
        let metadata: ProviderMetadata

        /// Signs the server's user in through the native flow.
        func signIn() async throws {
            try await client.signIn(email: server.user.email, password: server.user.password)
        }

        /// How many requests the client sent to `endpoint`.
        func requestCount(to endpoint: URL?) async -> Int {
            await transport.requests.filter { $0.url == endpoint }.count
        }
    }

    func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        // A sign-in rate limit above what one test sends in a second (the default allows bursts of 3).
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let transport = PassThroughTransport()
            let client = AuthClient(
                configuration: Configuration(
                    issuer: server.issuer, clientID: "limen-cli",
                    redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                    scopes: ["profile", "email", "offline_access"], store: MemoryStore(),
                    transport: transport))
            let metadata = try await ProviderDiscovery.fetch(issuer: server.issuer, transport: URLSessionTransport())
            try await body(Fixture(server: server, client: client, transport: transport, metadata: metadata))
        }
    }

    @Test("token() is an access token the server's UserInfo endpoint accepts; nobody signed in is notSignedIn")
    func token() async throws {
        try await withFixture { fixture in
            await #expect(throws: LimenError.notSignedIn) { try await fixture.client.user.token() }
            try await fixture.signIn()
            let token = try await fixture.client.user.token()
            let subject = try #require(fixture.client.state.user.id)
            let endpoint = try #require(fixture.metadata.userinfoEndpoint)
            let info = try await UserInfo.fetch(
                from: endpoint, accessToken: token, expectedSubject: subject, transport: URLSessionTransport())
            #expect(info.email == fixture.server.user.email)
        }
    }

    @Test(
        "userinfo(cache: true) answers from this session's copy without a request; cache: false asks; a new session asks"
    )
    func userinfoCache() async throws {
        try await withFixture { fixture in
            let user = fixture.client.user
            let endpoint = try #require(fixture.metadata.userinfoEndpoint)
            await #expect(throws: LimenError.notSignedIn) { try await user.userinfo(cache: true) }
            try await fixture.signIn()

            let first = try await user.userinfo(cache: true)
            #expect(first.email == fixture.server.user.email)
            #expect(await fixture.requestCount(to: endpoint) == 1, "nothing cached yet: one request")
            #expect(try await user.userinfo(cache: true) == first)
            #expect(await fixture.requestCount(to: endpoint) == 1, "the cached copy, no second request")
            #expect(try await user.userinfo(cache: false) == first)
            #expect(await fixture.requestCount(to: endpoint) == 2, "cache: false always asks")

            await fixture.client.signOut()
            await #expect(throws: LimenError.notSignedIn) { try await user.userinfo(cache: true) }
            try await fixture.signIn()
            _ = try await user.userinfo(cache: true)
            #expect(await fixture.requestCount(to: endpoint) == 3, "a new session starts without the old copy")
            try await fixture.signIn()
            _ = try await user.userinfo(cache: true)
            #expect(await fixture.requestCount(to: endpoint) == 4, "so does a sign-in over a session, without sign-out")
        }
    }

    @Test("revoke() makes the refresh token unusable at the server and signs out; nobody signed in is notSignedIn")
    func revoke() async throws {
        try await withFixture { fixture in
            await #expect(throws: LimenError.notSignedIn) { try await fixture.client.user.revoke() }
            try await fixture.signIn()
            let refreshToken = try #require(await fixture.client.currentTokens()?.refreshToken)
            let tokenClient = TokenClient(
                metadata: fixture.metadata, authentication: fixture.client.configuration.clientAuthentication,
                transport: URLSessionTransport())

            try await fixture.client.user.revoke()
            #expect(await fixture.requestCount(to: fixture.metadata.revocationEndpoint) == 2, "refresh, then access")
            #expect(fixture.client.state.phase == .signedOut)
            #expect(await fixture.client.currentTokens() == nil)
            await #expect(throws: OIDCError.self) { try await tokenClient.refresh(refreshToken) }
        }
    }

    @Test("logout() signs out as signOut does, with the end-session URL; nobody signed in is notSignedIn")
    func logout() async throws {
        try await withFixture { fixture in
            await #expect(throws: LimenError.notSignedIn) { try await fixture.client.user.logout() }
            try await fixture.signIn()
            let idToken = try #require(await fixture.client.currentTokens()?.idToken)

            let result = try await fixture.client.user.logout()
            #expect(result.revocationError == nil)
            let endSession = try #require(result.endSessionURL)
            let query = URLComponents(url: endSession, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(query.first { $0.name == "id_token_hint" }?.value == idToken)
            #expect(fixture.client.state.phase == .signedOut)
            await #expect(throws: LimenError.notSignedIn) { try await fixture.client.user.token() }
        }
    }
}
