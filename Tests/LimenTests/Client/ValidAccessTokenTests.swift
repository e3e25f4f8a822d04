import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("validAccessToken")
struct ValidAccessTokenTests {
    @Test("a token with more than the leeway left is returned without any request")
    func cached() async throws {
        try await ProviderFixture.with(expiresIn: 3600) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            #expect(try await fixture.client.validAccessToken() == "at-old")
            #expect(await fixture.tokenRequests() == 0)
        }
    }

    @Test("1,000 concurrent callers at expiry cause exactly one refresh request at the server")
    func singleFlight() async throws {
        let gate = Gate()
        try await ProviderFixture.with { _ in
            await gate.wait()
            return .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = fixture.client
            let results = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { try? await client.validAccessToken() }
                }
                group.addTask {
                    await gate.open()
                    return nil
                }
                var tokens: [String?] = []
                for await token in group { tokens.append(token) }
                return tokens
            }
            #expect(results.compactMap { $0 }.count == 1_000)
            #expect(Set(results.compactMap { $0 }) == ["at-new"])
            #expect(await fixture.tokenRequests() == 1)
        }
    }

    @Test("the rotated refresh token is stored before the new access token is returned")
    func rotationPersisted() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let events = EventRecorder(fixture.client)
            #expect(try await fixture.client.validAccessToken() == "at-new")
            let stored = try #require(try await fixture.storedSession())
            #expect(stored.refreshToken == "rt-new")
            #expect(stored.accessToken == "at-new")
            #expect(await fixture.server.log.requests.first { $0.path == "/token" }?.form["refresh_token"] == "rt-old")
            #expect(events.recorded == [.tokenRefreshed])
        }
    }

    @Test("a refresh without a new refresh token keeps the old one")
    func rotationOptional() async throws {
        try await ProviderFixture.with { _ in
            .json(#"{"access_token":"at-new","token_type":"bearer","expires_in":3600}"#)
        } run: { fixture async throws in
            _ = try await fixture.client.validAccessToken()
            #expect(try await fixture.storedSession()?.refreshToken == "rt-old")
        }
    }

    @Test(
        "transient token endpoint failures throw a retryable error and keep the session",
        arguments: [
            (HTTPResponse(status: 503), LimenError.network(.httpStatus(503))),
            (HTTPResponse(status: 429, headers: ["Retry-After": "7"]), LimenError.network(.rateLimited(retryAfter: 7))),
            (
                HTTPResponse.json(#"{"error":"temporarily_unavailable"}"#, status: 400),
                LimenError.oauth(OAuthError(error: .temporarilyUnavailable, httpStatus: 400))
            ),
        ]
    )
    func transientFailure(answer: HTTPResponse, expected: LimenError) async throws {
        try await ProviderFixture.with { _ in
            answer
        } run: { fixture async throws in
            let error = await #expect(throws: LimenError.self) { try await fixture.client.validAccessToken() }
            #expect(error == expected)
            #expect(error?.isRetryable == true)
            #expect(fixture.client.state.phase == .signedIn)
            #expect(try await fixture.storedSession()?.refreshToken == "rt-old")
        }
    }

    @Test("a dropped connection throws a retryable error and keeps the session")
    func droppedConnection() async throws {
        let dropping = try DroppingServer()
        defer { dropping.stop() }
        try await ProviderFixture.with(routes: [:]) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = AuthClient(
                configuration: Configuration(
                    issuer: fixture.server.baseURL,
                    clientID: "app",
                    store: fixture.store,
                    transport: RedirectingTransport(tokenEndpoint: dropping.baseURL.appendingPathComponent("token")),
                    now: { fixture.clock.now }
                )
            )
            let error = await #expect(throws: LimenError.self) { try await client.validAccessToken() }
            #expect(error?.isRetryable == true)
            #expect(error?.code.hasPrefix("network.") == true)
            #expect(client.state.phase == .signedIn)
            #expect(try await fixture.storedSession()?.refreshToken == "rt-old")
        }
    }

    @Test("invalid_grant returns nil, clears the session and emits sessionExpired")
    func invalidGrant() async throws {
        try await ProviderFixture.with { _ in
            .json(#"{"error":"invalid_grant"}"#, status: 400)
        } run: { fixture async throws in
            let events = EventRecorder(fixture.client)
            #expect(try await fixture.client.validAccessToken() == nil)
            #expect(fixture.client.state.phase == .expired)
            #expect(fixture.client.state.auth.isAuthenticated == false)
            #expect(fixture.client.state.auth.hasPreviouslySignedIn == true)
            #expect(try await fixture.storedSession() == nil)
            #expect(events.recorded == [.sessionExpired])
        }
    }

    @Test("a refresh that finishes after sign-out is discarded")
    func refreshAfterSignOut() async throws {
        let arrived = Gate()
        let release = Gate()
        try await ProviderFixture.with { _ in
            await arrived.open()
            await release.wait()
            return .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = fixture.client
            let pending = Task { try await client.validAccessToken() }
            await arrived.wait()
            await client.signOut(revoke: false)
            await release.open()
            #expect(try await pending.value == nil)
            #expect(client.state.phase == .signedOut)
            #expect(try await fixture.storedSession() == nil)
        }
    }
}

/// Sends token requests to another endpoint (a dropping server) and everything else as usual.
struct RedirectingTransport: HTTPTransport {
    let tokenEndpoint: URL
    let base = URLSessionTransport()

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var request = request
        if request.url.path == "/token" { request.url = tokenEndpoint }
        return try await base.send(request)
    }
}
