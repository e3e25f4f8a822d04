import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// ``AuthClient/exchange(externalToken:type:scopes:)`` against Limen Server: the `limen-server` binary trusting a
/// stand-in issuer (an ES256 key at `/jwks` of a test HTTP server), with a native client registered for the token
/// exchange grant.
@Suite(
    "Token exchange against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerTokenExchangeTests {
    static let audience = "limen-sdk-tests"
    static let clientID = "exchanger"

    struct Fixture {
        let client: AuthClient
        let store: MemoryStore
        let configuration: Configuration
        let key: TestSigningKey
        let issuer: String

        /// An ID token of the stand-in issuer for `subject`, valid for five minutes, for `audience`.
        func token(subject: String = "ext-1", audience: String = LimenServerTokenExchangeTests.audience) throws
            -> String
        {
            let now = Date().timeIntervalSince1970.rounded(.down)
            return try key.sign([
                "iss": .string(issuer), "sub": .string(subject), "aud": .string(audience),
                "iat": .number(now), "exp": .number(now + 300),
            ])
        }
    }

    func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        let key = try await TestSigningKey.es256(kid: "external-1")
        let jwks = TestSigningKey.jwksJSON([key])
        try await TestHTTPServer.withServer(["GET /jwks": { _ in .json(jwks) }]) { standIn in
            let issuer = standIn.baseURL.absoluteString
            let trusted = """
                trusted_issuers:
                  - {issuer: "\(issuer)", jwks_url: "\(issuer)/jwks", audiences: [\(Self.audience)], algorithms: [ES256]}
                """
            try await LimenServerPeer.with(configuration: trusted) { server in
                _ = try await Subprocess.run(
                    LimenServerPeer.binary,
                    arguments: [
                        "clients", "add", "--id", Self.clientID, "--native", "--redirect-uri",
                        "http://127.0.0.1/callback", "--grant-type", "urn:ietf:params:oauth:grant-type:token-exchange",
                        "--grant-type", "refresh_token", "--data-dir", server.dataDirectory.path,
                    ])
                let store = MemoryStore()
                let configuration = Configuration(
                    issuer: server.issuer, clientID: Self.clientID,
                    redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                    scopes: ["profile", "offline_access"], store: store, transport: URLSessionTransport())
                try await body(
                    Fixture(
                        client: AuthClient(configuration: configuration), store: store,
                        configuration: configuration, key: key, issuer: issuer))
            }
        }
    }

    @Test("a trusted issuer's ID token becomes a session: state, events, storage and a refresh token, like a sign-in")
    func exchanged() async throws {
        try await withFixture { fixture in
            let client = fixture.client
            var events = client.eventStream().makeAsyncIterator()
            let user = try #require(try await client.exchange(externalToken: try fixture.token()))
            #expect(user.id != nil)
            #expect(client.state.phase == .signedIn)
            #expect(client.state.user.id == user.id)
            #expect(await events.next() == .signInStarted(method: .tokenExchange))
            guard case .signInCompleted(method: .tokenExchange, _)? = await events.next() else {
                Issue.record("no signInCompleted(tokenExchange)")
                return
            }
            #expect(try await client.refresh() != nil, "the session has a refresh token")

            let restored = AuthClient(configuration: fixture.configuration)
            _ = await restored.restore()
            #expect(restored.state.user.id == user.id, "the session was stored as after a sign-in")

            let again = try await client.exchange(externalToken: try fixture.token())
            #expect(again?.id == user.id, "the same external subject is the same user")
        }
    }

    @Test("a token the server will not exchange is nil, with the state as it was", arguments: ["audience", "forged"])
    func refused(kind: String) async throws {
        try await withFixture { fixture in
            let client = fixture.client
            let token =
                kind == "audience"
                ? try fixture.token(audience: "someone-else")
                : TestBase64URL.flippingSignatureByte(of: try fixture.token())
            #expect(try await client.exchange(externalToken: token) == nil)
            #expect(client.state.phase == .signedOut)
            #expect(try await client.validAccessToken() == nil)
        }
    }
}
