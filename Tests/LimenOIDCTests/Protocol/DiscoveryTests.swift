import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("Discovery")
struct DiscoveryTests {
    static func document(issuer: String) -> String {
        """
        {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",
         "jwks_uri":"\(issuer)/jwks","authorization_response_iss_parameter_supported":true}
        """
    }

    @Test("fetches and parses the OpenID configuration")
    func fetches() async throws {
        let box = IssuerBox()
        try await TestHTTPServer.withServer([
            "GET /.well-known/openid-configuration": { _ in .json(Self.document(issuer: await box.value)) }
        ]) { server async throws in
            await box.set(server.baseURL.absoluteString)
            let metadata = try await ProviderDiscovery(issuer: server.baseURL, transport: URLSessionTransport())
                .metadata()
            #expect(metadata.tokenEndpoint == server.url("token"))
            #expect(metadata.authorizationResponseIssParameterSupported == true)
        }
    }

    @Test("a document naming another issuer is refused")
    func issuerMismatch() async throws {
        try await TestHTTPServer.withServer([
            "GET /.well-known/openid-configuration": { _ in .json(Self.document(issuer: "https://evil.example")) }
        ]) { server async throws in
            let discovery = ProviderDiscovery(issuer: server.baseURL, transport: URLSessionTransport())
            let expected = OIDCError.discovery(
                .issuerMismatch(expected: server.baseURL.absoluteString, actual: "https://evil.example"))
            await #expect(throws: expected) { try await discovery.metadata() }
        }
    }

    @Test("falls back to the RFC 8414 location, inserted before the issuer's path")
    func oauthFallback() async throws {
        let box = IssuerBox()
        try await TestHTTPServer.withServer([
            "GET /.well-known/oauth-authorization-server/tenant": { _ in .json(Self.document(issuer: await box.value))
            }
        ]) { server async throws in
            let issuer = server.url("tenant")
            await box.set(issuer.absoluteString)
            let metadata = try await ProviderDiscovery(issuer: issuer, transport: URLSessionTransport()).metadata()
            #expect(metadata.issuer == issuer.absoluteString)
        }
    }

    @Test("a fresh document is reused; after the TTL it is fetched again")
    func caches() async throws {
        let box = IssuerBox()
        let clock = TestNow()
        try await TestHTTPServer.withServer([
            "GET /.well-known/openid-configuration": { _ in .json(Self.document(issuer: await box.value)) }
        ]) { server async throws in
            await box.set(server.baseURL.absoluteString)
            let discovery = ProviderDiscovery(
                issuer: server.baseURL,
                transport: URLSessionTransport(),
                timeToLive: 60,
                now: { clock.now }
            )
            _ = try await discovery.metadata()
            clock.advance(by: 59)
            _ = try await discovery.metadata()
            #expect(await server.log.count(path: "/.well-known/openid-configuration") == 1)
            clock.advance(by: 2)
            _ = try await discovery.metadata()
            #expect(await server.log.count(path: "/.well-known/openid-configuration") == 2)
        }
    }

    @Test("malformed JSON is a typed error, not a crash")
    func malformed() async throws {
        _ = try await TestHTTPServer.withServer([
            "GET /.well-known/openid-configuration": { _ in .json("{\"issuer\": 42") }
        ]) { server async throws in
            await #expect(throws: OIDCError.discovery(.invalidDocument("not JSON"))) {
                try await ProviderDiscovery(issuer: server.baseURL, transport: URLSessionTransport()).metadata()
            }
        }
    }

    @Test(
        "a plain-http issuer that is not loopback is refused",
        arguments: ["http://id.example.com", "https://id.example.com?x=1"])
    func insecureIssuer(issuer: String) async {
        await #expect(throws: OIDCError.discovery(.invalidIssuer(issuer))) {
            try await ProviderDiscovery.fetch(issuer: URL(string: issuer)!, transport: URLSessionTransport())
        }
    }
}
