import Foundation
import Limen
import LimenNIOTransport
import LimenOIDC
import LimenTestSupport
import LimenWire
import TestSupport
import Testing

/// The transport against a real TLS server: nginx presenting the test chains in front of a plain HTTP test server.
@Suite(
    "The NIO transport over TLS (nginx)",
    .enabled(if: NginxProxy.unavailableReason == nil, "\(NginxProxy.unavailableReason ?? "")")
)
struct NIOHTTPTransportTests {
    /// A pin of no certificate here: the second pin every pinned host needs.
    static let unusedPin = Data(repeating: 0xB0, count: 32).base64EncodedString()

    /// An upstream that echoes each request, answers a large body on `/large`, and holds `/hang` until `release`.
    static func withUpstream<T>(_ body: (TestHTTPServer, Gate) async throws -> T) async throws -> T {
        let release = Gate()
        let server = try await TestHTTPServer.start([
            "/echo": { request in
                .json([
                    "method": request.method, "host": request.header("host") ?? "",
                    "test": request.header("x-test") ?? "", "body": String(decoding: request.body, as: UTF8.self),
                    "query": request.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"),
                ])
            },
            "/large": { _ in HTTPResponse(status: 200, body: Data(repeating: 0x61, count: 64 * 1024)) },
            "/hang": { _ in
                await release.wait()
                return HTTPResponse(status: 204)
            },
        ])
        return try await withStopping(
            server, stop: { await $0.stop() },
            { server in
                defer { Task { await release.open() } }
                return try await body(server, release)
            })
    }

    /// Runs `body` with an upstream and nginx presenting `leaf` in front of it, and the chains.
    static func withTLS<T>(
        presenting leaf: KeyPath<CertificateChains, CertificateChains.Issued> = \.leaf,
        _ body: (URL, CertificateChains, Gate) async throws -> T
    ) async throws -> T {
        let chains = try await CertificateChains.shared()
        return try await withUpstream { upstream, release in
            let upstreamPort = try #require(upstream.baseURL.port)
            return try await TLSProxy.with(presenting: chains[keyPath: leaf], of: chains, upstreamPort: upstreamPort) {
                port in
                try await body(try #require(URL(string: "https://localhost:\(port)")), chains, release)
            }
        }
    }

    /// A transport trusting the test root.
    static func trusting(_ chains: CertificateChains, timeout: TimeInterval = 30, maximumResponseBytes: Int = 1 << 20)
        throws -> NIOHTTPTransport
    {
        try NIOHTTPTransport(
            timeout: timeout, additionalTrustRoots: [chains.root.der], maximumResponseBytes: maximumResponseBytes)
    }

    /// `transport` enforcing `pins` for `localhost`, each mismatch recorded in `failures`.
    static func pinned(
        _ transport: NIOHTTPTransport, pins: [String], failures: Locked<[PinningFailure]> = Locked([])
    ) throws -> any HTTPTransport {
        let pinning = try CertificatePinning([PinnedHost("localhost", pins: pins)])
        let evaluator = PinningEvaluator(
            pinning: pinning, report: { failure in failures.withLock { $0.append(failure) } })
        return try #require(transport.pinned(by: evaluator))
    }

    @Test("GET and POST over TLS: status, headers, query and body arrive as sent and come back")
    func exchanges() async throws {
        try await Self.withTLS { base, chains, _ in
            let transport = try Self.trusting(chains)
            let url = try #require(URL(string: "\(base.absoluteString)/echo?a=b%20c"))
            let post = HTTPRequest(
                method: "POST", url: url, headers: ["X-Test": "yes"], body: Data("grant_type=x".utf8))
            let answer = try await transport.send(post)
            #expect(answer.status == 200)
            #expect(answer.header("content-type")?.hasPrefix("application/json") == true)
            let echoed = try JSONDecoder().decode([String: String].self, from: answer.body)
            #expect(echoed["method"] == "POST" && echoed["test"] == "yes" && echoed["body"] == "grant_type=x")
            #expect(echoed["query"] == "a=b c")
            #expect(echoed["host"] == "localhost:\(base.port ?? 0)")
            let get = try await transport.send(HTTPRequest(url: url))
            #expect(get.status == 200)
        }
    }

    @Test("a server whose root is not trusted is refused with a TLS error, before the request is sent")
    func untrustedRoot() async throws {
        try await Self.withTLS { base, _, _ in
            let url = base.appendingPathComponent("echo")
            do throws(NetworkError) {
                _ = try await NIOHTTPTransport().send(HTTPRequest(url: url))
                Issue.record("an unknown root was trusted")
            } catch {
                guard case .tls(let detail) = error else { throw error }
                #expect(detail.hasPrefix("TLS with \(base.absoluteString) failed (certificate not trusted"))
            }
        }
    }

    @Test("pinned: the leaf's key passes; keys matching no pin fail with the host named and a report")
    func pinning() async throws {
        try await Self.withTLS { base, chains, _ in
            let url = base.appendingPathComponent("echo")
            let right = try Self.pinned(Self.trusting(chains), pins: [chains.leaf.pin, Self.unusedPin])
            #expect(try await right.send(HTTPRequest(url: url)).status == 200)

            let failures = Locked<[PinningFailure]>([])
            let wrong = try Self.pinned(
                Self.trusting(chains), pins: [chains.other.pin, chains.backup.pin], failures: failures)
            await #expect(throws: NetworkError.pinningFailed(host: "localhost")) {
                try await wrong.send(HTTPRequest(url: url))
            }
            let presented = failures.withLock { $0 }.first?.presentedPins.map(\.base64)
            #expect(presented == [chains.leaf.pin, chains.intermediate.pin, chains.root.pin])
        }
    }

    @Test("pinned to the current and the backup key: the backup passes once the server's leaf is rotated to it")
    func backupAfterRotation() async throws {
        try await Self.withTLS(presenting: \.backup) { base, chains, _ in
            let transport = try Self.pinned(Self.trusting(chains), pins: [chains.leaf.pin, chains.backup.pin])
            #expect(try await transport.send(HTTPRequest(url: base.appendingPathComponent("echo"))).status == 200)
        }
    }

    @Test("a body larger than the limit fails as an invalid response")
    func tooLarge() async throws {
        try await Self.withTLS { base, chains, _ in
            let transport = try Self.trusting(chains, maximumResponseBytes: 1024)
            let refusal = NetworkError.invalidResponse(
                "the response from \(base.absoluteString) is larger than 1024 bytes")
            await #expect(throws: refusal) {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("large")))
            }
        }
    }

    @Test("a server that never answers fails with timeout; a cancelled request with cancelled")
    func timeoutAndCancellation() async throws {
        try await Self.withTLS { base, chains, _ in
            let hang = HTTPRequest(url: base.appendingPathComponent("hang"))
            await #expect(throws: NetworkError.timeout) {
                try await Self.trusting(chains, timeout: 0.5).send(hang)
            }
            let transport = try Self.trusting(chains)
            let request = Task { try await transport.send(hang) }
            request.cancel()
            await #expect(throws: NetworkError.cancelled) { try await request.value }
        }
    }

    @Test("plain HTTP works; a refused connection is offline, naming where")
    func plainAndRefused() async throws {
        try await Self.withUpstream { upstream, _ in
            let answer = try await NIOHTTPTransport().send(HTTPRequest(url: upstream.url("echo")))
            #expect(answer.status == 200)
        }
        let port = try FreePort.find()
        let refusal = NetworkError.offline("could not connect to http://127.0.0.1:\(port) (connection refused)")
        await #expect(throws: refusal) {
            try await NIOHTTPTransport().send(HTTPRequest(url: #require(URL(string: "http://127.0.0.1:\(port)/x"))))
        }
    }
}
