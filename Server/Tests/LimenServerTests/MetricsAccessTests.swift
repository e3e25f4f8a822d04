import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Metrics: who may read /metrics")
struct MetricsAccessTests {
    private static let token = String(repeating: "m", count: 40)

    /// Serves a provider on a real socket (the peer is 127.0.0.1) trusting 127.0.0.1 as a proxy, with `access`;
    /// `body` gets `GET /metrics` with the given `X-Forwarded-For` and `Authorization` values.
    private func withMetrics(
        _ access: MetricsAccess,
        _ body:
            @Sendable (_ get: @Sendable (String?, String?) async throws -> (HTTPResponse, String)) async throws ->
            Void
    ) async throws {
        ServerMetrics.bootstrap()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory, port: 0)
        configuration.trustedProxies = try #require(TrustedProxies(["127.0.0.1"]))
        configuration.metricsAccess = access
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        let app = Application(router: LimenServerApplication.router(composition: provider))
        do {
            try await app.test(.live) { client in
                try await client.execute(uri: "/jwks", method: .get) { #expect($0.status == .ok) }
                try await body { forwardedFor, authorization in
                    var headers: HTTPFields = [:]
                    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = forwardedFor
                    headers[.authorization] = authorization
                    return try await client.execute(uri: "/metrics", method: .get, headers: headers) {
                        (HTTPResponse(status: $0.status, headerFields: $0.headers), String(buffer: $0.body))
                    }
                }
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }

    @Test("/metrics serves Prometheus text with a request counter per route, method and status")
    func prometheusExposition() async throws {
        try await withMetrics(.loopback) { get in
            let (response, text) = try await get(nil, nil)
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let jwksLine = text.split(separator: "\n").first {
                $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/jwks\"")
                    && $0.contains("http_response_status_code=\"200\"")
            }
            #expect(jwksLine != nil, "no counter for GET /jwks in:\n\(text)")
            #expect(text.contains("# TYPE http_server_request_duration histogram"))
        }
    }

    @Test("by default a client a local reverse proxy forwards from elsewhere is refused; the machine itself is not")
    func loopbackByDefault() async throws {
        #expect(ServerConfiguration().metricsAccess == .loopback)
        try await withMetrics(ServerConfiguration().metricsAccess) { get in
            let (outside, body) = try await get("203.0.113.9", nil)
            #expect(outside.status == .forbidden)
            #expect(!body.contains("hb_requests"))
            #expect(try await get("127.0.0.1", nil).0.status == .ok)
            #expect(try await get("::1", nil).0.status == .ok)
        }
    }

    @Test("token access refuses a request without the token or with another one (401, Bearer challenge)")
    func bearerToken() async throws {
        try await withMetrics(.bearer(Self.token)) { get in
            for authorization in [nil, "Bearer " + Self.token.dropLast() + "n", "Basic " + Self.token] {
                let (response, body) = try await get(nil, authorization)
                #expect(response.status == .unauthorized)
                #expect(response.headerFields[.wwwAuthenticate]?.hasPrefix("Bearer realm=\"metrics\"") == true)
                #expect(!body.contains("hb_requests"))
            }
            #expect(try await get("203.0.113.9", "Bearer " + Self.token).0.status == .ok)
        }
    }

    @Test("public access serves everyone; off serves nobody (404)")
    func publicAndOff() async throws {
        try await withMetrics(.everyone) { get in
            let (response, _) = try await get("203.0.113.9", nil)
            #expect(response.status == .ok)
        }
        try await withMetrics(.off) { get in
            let (response, _) = try await get(nil, nil)
            #expect(response.status == .notFound)
        }
    }
}

@Suite("Metrics settings")
struct MetricsSettingsTests {
    private static let token = String(repeating: "t", count: 32)

    private func resolve(
        _ environment: [String: String],
        metrics: String? = nil
    ) throws(ConfigurationError) -> MetricsAccess {
        try ServerConfiguration.resolve(flags: ConfigurationFlags(["--metrics": metrics]), environment: environment)
            .metricsAccess
    }

    @Test("metrics takes loopback, public and off; a token alone, or with token, asks for that token")
    func modes() throws {
        #expect(try resolve([:]) == .loopback)
        #expect(try resolve(["LIMEN_METRICS": "public"]) == .everyone)
        #expect(try resolve([:], metrics: "off") == .off)
        #expect(try resolve(["LIMEN_METRICS": "public"], metrics: "loopback") == .loopback)
        #expect(try resolve(["LIMEN_METRICS_TOKEN": Self.token]) == .bearer(Self.token))
        #expect(try resolve(["LIMEN_METRICS_TOKEN": Self.token], metrics: "token") == .bearer(Self.token))
    }

    @Test(
        "refused: an unknown mode, token without a token, a token with another mode, a short token (never echoed)",
        arguments: [
            ([:], "everyone", "--metrics"),
            ([:], "token", "--metrics"),
            (["LIMEN_METRICS_TOKEN": String(repeating: "t", count: 32)], "public", "--metrics"),
            (["LIMEN_METRICS_TOKEN": "short-secret-value"], nil, "LIMEN_METRICS_TOKEN"),
        ] as [([String: String], String?, String)]
    )
    func refused(environment: [String: String], metrics: String?, key: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try resolve(environment, metrics: metrics) }
        #expect(error.key == key)
        if let token = environment["LIMEN_METRICS_TOKEN"] {
            #expect(!error.value.contains(token))
            #expect(!(error.errorDescription ?? "").contains(token))
        }
    }
}
