import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Trusted proxies and X-Forwarded-For")
struct TrustedProxiesTests {
    private let proxies = TrustedProxies(["127.0.0.1", "10.0.0.2"])

    @Test(
        "from a trusted proxy, the client is the right-most X-Forwarded-For entry that is not a trusted proxy",
        arguments: [
            (["203.0.113.7"], "203.0.113.7"),
            (["203.0.113.7, 10.0.0.2"], "203.0.113.7"),
            (["198.51.100.66, 203.0.113.7, 10.0.0.2"], "203.0.113.7"),  // the left-most entry is the client's word
            (["198.51.100.66", "203.0.113.7"], "203.0.113.7"),  // several fields are one list
            (["10.0.0.2, 127.0.0.1"], "10.0.0.2"),  // only proxies: the left-most
            ([], "127.0.0.1"),
            (["garbage, 10.0.0.2"], "10.0.0.2"),  // not an address: stop at the proxy that wrote it
            (["2001:db8:0:0::1"], "2001:db8::1"),
            (["::ffff:203.0.113.7"], "203.0.113.7"),
        ] as [([String], String)]
    )
    func trustedPeer(forwardedFor: [String], client: String) throws {
        let proxies = try #require(proxies)
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: forwardedFor) == client)
    }

    @Test("from any other peer the header is ignored: the peer is the client")
    func untrustedPeer() throws {
        let proxies = try #require(proxies)
        #expect(proxies.clientAddress(peer: "198.51.100.9", forwardedFor: ["203.0.113.7"]) == "198.51.100.9")
        #expect(TrustedProxies.none.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "127.0.0.1")
    }

    @Test("a trusted proxy is an IP address; a range, a port or a name is refused")
    func onlyAddresses() {
        #expect(TrustedProxies(["::1", "192.0.2.1"])?.addresses == ["::1", "192.0.2.1"])
        for bad in ["10.0.0.0/8", "127.0.0.1:8080", "proxy.internal", ""] {
            #expect(TrustedProxies([bad]) == nil, "\(bad)")
        }
    }

    @Test("--trusted-proxy repeats, LIMEN_TRUSTED_PROXIES is a comma list, the file takes a list or a string")
    func configurationSources() throws {
        let fromFlags = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--trusted-proxy": "127.0.0.1", "--trusted-proxy": "::1"]),
            environment: ["LIMEN_TRUSTED_PROXIES": "10.0.0.1"]
        )
        #expect(fromFlags.trustedProxies.addresses == ["127.0.0.1", "::1"])
        let fromEnvironment = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(),
            environment: ["LIMEN_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2"]
        )
        #expect(fromEnvironment.trustedProxies.addresses == ["10.0.0.1", "10.0.0.2"])
        #expect(try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:]).trustedProxies == .none)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (name, text) in [
            ("list.yaml", "trusted_proxies: [127.0.0.1, \"::1\"]"), ("text.yaml", "trusted_proxies: 127.0.0.1,::1"),
        ] {
            let path = directory.path + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let fromFile = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--config": path]), environment: [:])
            #expect(fromFile.trustedProxies.addresses == ["127.0.0.1", "::1"], "\(name)")
        }
    }

    @Test(
        "a trusted proxy that is not an IP address is refused, naming its source and the bad entry",
        arguments: [
            (
                ConfigurationFlags(["--trusted-proxy": "127.0.0.1", "--trusted-proxy": "10.0.0.0/8"]), [:],
                "--trusted-proxy", "10.0.0.0/8"
            ),
            (ConfigurationFlags(), ["LIMEN_TRUSTED_PROXIES": "127.0.0.1,nginx"], "LIMEN_TRUSTED_PROXIES", "nginx"),
        ] as [(ConfigurationFlags, [String: String], String, String)]
    )
    func badSetting(flags: ConfigurationFlags, environment: [String: String], key: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: flags, environment: environment)
        }
        #expect(error?.key == key)
        #expect(error?.value == value)
    }

    @Test("behind a trusted proxy, POSTs are limited per forwarded client, not for everyone together")
    func rateLimitPerForwardedClient() async throws {
        try await withLimitedServer(trusting: ["127.0.0.1"]) { post async throws in
            #expect(try await post("203.0.113.7") != .tooManyRequests)
            #expect(try await post("203.0.113.7") == .tooManyRequests)
            #expect(try await post("198.51.100.9") != .tooManyRequests, "another client has its own bucket")
            #expect(try await post("198.51.100.66, 203.0.113.7") == .tooManyRequests, "a forged entry changes nothing")
        }
    }

    @Test("from a peer that is not a trusted proxy, X-Forwarded-For changes nothing")
    func untrustedHeaderIgnored() async throws {
        try await withLimitedServer(trusting: ["10.0.0.2"]) { post async throws in
            #expect(try await post("203.0.113.7") != .tooManyRequests)
            #expect(try await post("198.51.100.9") == .tooManyRequests, "the peer 127.0.0.1 is the client")
        }
    }

    /// Serves a provider on a real socket (so the peer is 127.0.0.1) with one POST per client address, trusting
    /// `proxies`; `body` POSTs with an `X-Forwarded-For` value and gets the status.
    private func withLimitedServer(
        trusting proxies: [String],
        _ body: @Sendable (_ post: @Sendable (String) async throws -> HTTPResponse.Status) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var configuration = ServerConfiguration.testing(directory: directory, port: 0)
        configuration.postRateLimit = RateLimit(burst: 1, perSecond: 0.001)
        configuration.trustedProxies = try #require(TrustedProxies(proxies))
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let app = Application(router: LimenServerApplication.router(composition: provider))
        do {
            try await app.test(.live) { client in
                try await body { forwardedFor in
                    var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = forwardedFor
                    return try await client.execute(uri: "/revoke", method: .post, headers: headers, body: ByteBuffer())
                    { $0.status }
                }
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}
