import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("RetryingTransport")
struct RetryingTransportTests {
    @Test("a GET answered 503, 503, 200 is retried until it succeeds, waiting the jittered backoff")
    func retriesUntilSuccess() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503), HTTPResponse(status: 503), .ok]) {
            server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(
                base: URLSessionTransport(), clock: sleeps, random: Randoms([0.5, 0.75]).next)
            let response = try await transport.send(HTTPRequest(url: server.url))
            #expect(response.status == 200)
            #expect(await server.requestCount() == 3)
            // Full jitter: random × min(8 s, 0.5 s × 2ⁿ).
            #expect(sleeps.recorded == [.milliseconds(250), .milliseconds(750)])
        }
    }

    @Test(
        "a GET is retried after HTTP 429, 502, 503 and 504",
        arguments: [429, 502, 503, 504]
    )
    func retryableStatuses(status: Int) async throws {
        try await ScriptedServer.with([HTTPResponse(status: status), .ok]) { server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps, random: { 0 })
            #expect(try await transport.send(HTTPRequest(url: server.url)).status == 200)
            #expect(await server.requestCount() == 2)
        }
    }

    @Test("a GET answered 500 or 404 is returned without a retry", arguments: [500, 404])
    func nonRetryableStatus(status: Int) async throws {
        try await ScriptedServer.with([HTTPResponse(status: status), .ok]) { server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps)
            #expect(try await transport.send(HTTPRequest(url: server.url)).status == status)
            #expect(await server.requestCount() == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test("a POST answered 503 is not retried: exactly one request reaches the server")
    func postNotRetriedAfterStatus() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503), .ok]) { server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps)
            let request = HTTPRequest.form(url: server.url, [("grant_type", "refresh_token")])
            #expect(try await transport.send(request).status == 503)
            #expect(await server.requestCount() == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test("a POST that failed offline (never reached the server) is retried once and succeeds")
    func postRetriedWhenOffline() async throws {
        try await ScriptedServer.with([.ok]) { server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(
                base: FailingFirst([.offline("no route")], then: URLSessionTransport()),
                clock: sleeps,
                random: { 0.5 }
            )
            let request = HTTPRequest.form(url: server.url, [("grant_type", "refresh_token")])
            #expect(try await transport.send(request).status == 200)
            #expect(await server.requestCount() == 1)
            #expect(sleeps.recorded == [.milliseconds(250)])
        }
    }

    @Test(
        "a POST that may have reached the server is not retried",
        arguments: [NetworkError.timeout, .connectionLost("reset")]
    )
    func postNotRetriedWhenMaybeDelivered(error: NetworkError) async throws {
        let failing = FailingFirst([error], then: RecordingTransport())
        let sleeps = TestClock()
        let transport = RetryingTransport(base: failing, clock: sleeps)
        let request = HTTPRequest.form(url: URL(string: "http://127.0.0.1:1/token")!, [("grant_type", "x")])
        await #expect(throws: error) { try await transport.send(request) }
        #expect(failing.attempts == 1)
        #expect(sleeps.recorded.isEmpty)
    }

    @Test("a GET is retried after a timeout, being offline or a lost connection, but not after a TLS failure")
    func getRetriedAfterTransientErrors() async throws {
        try await ScriptedServer.with([.ok, .ok, .ok]) { server async throws in
            let failing = FailingFirst(
                [.timeout, .offline("down"), .connectionLost("reset")], then: URLSessionTransport())
            let sleeps = TestClock()
            let transport = RetryingTransport(base: failing, clock: sleeps, random: { 0 })
            #expect(try await transport.send(HTTPRequest(url: server.url)).status == 200)
            #expect(failing.attempts == 4)
            #expect(sleeps.recorded.count == 3)

            let tls = FailingFirst([.tls("untrusted")], then: URLSessionTransport())
            let once = RetryingTransport(base: tls, clock: sleeps)
            await #expect(throws: NetworkError.tls("untrusted")) { try await once.send(HTTPRequest(url: server.url)) }
            #expect(tls.attempts == 1)
        }
    }

    @Test("Retry-After: 2 is honoured instead of the jittered backoff")
    func retryAfterSeconds() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503, headers: ["Retry-After": "2"]), .ok]) {
            server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps, random: { 0.5 })
            #expect(try await transport.send(HTTPRequest(url: server.url)).status == 200)
            #expect(sleeps.recorded == [.seconds(2)])
            #expect(await server.requestCount() == 2)
        }
    }

    @Test("Retry-After as an HTTP date is honoured relative to the injected clock")
    func retryAfterDate() async throws {
        let clock = TestNow()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: clock.now.addingTimeInterval(5))
        try await ScriptedServer.with([HTTPResponse(status: 429, headers: ["Retry-After": date]), .ok]) {
            server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps, now: { clock.now })
            #expect(try await transport.send(HTTPRequest(url: server.url)).status == 200)
            #expect(sleeps.recorded == [.seconds(5)])
        }
    }

    @Test("Retry-After: 120, over the 30 s maximum, returns the response at once without waiting")
    func retryAfterOverMaximum() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503, headers: ["Retry-After": "120"]), .ok]) {
            server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps)
            let response = try await transport.send(HTTPRequest(url: server.url))
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "120")
            #expect(sleeps.recorded.isEmpty)
            #expect(await server.requestCount() == 1)
        }
    }

    @Test("after the last retry the last response is returned")
    func givesUpWithLastResponse() async throws {
        let answers = (1...5).map { HTTPResponse(status: 503, headers: ["X-Attempt": "\($0)"]) }
        try await ScriptedServer.with(answers) { server async throws in
            let sleeps = TestClock()
            let transport = RetryingTransport(base: URLSessionTransport(), clock: sleeps, random: { 0.5 })
            let response = try await transport.send(HTTPRequest(url: server.url))
            #expect(response.status == 503)
            #expect(response.header("X-Attempt") == "4")
            #expect(await server.requestCount() == 4)
            // The ceiling doubles from 0.5 s: 0.5, 1, 2 (× 0.5 jitter).
            #expect(sleeps.recorded == [.milliseconds(250), .milliseconds(500), .seconds(1)])
        }
    }

    @Test("after the last retry the last error is thrown")
    func givesUpWithLastError() async throws {
        let failing = FailingFirst(
            [.timeout, .timeout, .timeout, .connectionLost("last"), .timeout], then: RecordingTransport())
        let sleeps = TestClock()
        let transport = RetryingTransport(base: failing, clock: sleeps, random: { 0 })
        await #expect(throws: NetworkError.connectionLost("last")) {
            try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:1/")!))
        }
        #expect(failing.attempts == 4)
        #expect(sleeps.recorded.count == 3)
    }

    @Test("the backoff ceiling stops growing at the 8 s cap and the retry count is configurable")
    func cappedBackoff() async throws {
        let failing = FailingFirst(Array(repeating: .timeout, count: 8), then: RecordingTransport())
        let sleeps = TestClock()
        let transport = RetryingTransport(
            base: failing, policy: RetryPolicy(maxRetries: 6), clock: sleeps, random: { 0.5 })
        await #expect(throws: NetworkError.timeout) {
            try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:1/")!))
        }
        #expect(failing.attempts == 7)
        #expect(
            sleeps.recorded == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4),
            ])
    }

    @Test("a configuration's clock is the one its default transport waits on")
    func configurationClock() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503), .ok]) { server async throws in
            let clock = TestClock()
            let configuration = Configuration(issuer: server.url, clientID: "app", store: MemoryStore(), clock: clock)
            let response = try await configuration.transport.send(HTTPRequest(url: server.url))
            #expect(response.status == 200)
            #expect(clock.recorded.count == 1)
        }
    }

    @Test("cancelling the caller during a wait ends the call with cancelled")
    func cancellationDuringWait() async throws {
        try await ScriptedServer.with([HTTPResponse(status: 503, headers: ["Retry-After": "25"]), .ok]) {
            server async throws in
            let waiting = Gate()
            let transport = RetryingTransport(
                base: URLSessionTransport(),
                clock: TestClock { _ in
                    await waiting.open()
                    await Gate().wait()  // never opened: the wait ends only when the call is cancelled
                }
            )
            let call = Task { try await transport.send(HTTPRequest(url: server.url)) }
            await waiting.wait()
            call.cancel()
            let result = await call.result
            #expect(throws: NetworkError.cancelled) { try result.get() }
            #expect(await server.requestCount() == 1)
        }
    }
}

/// A loopback server answering `GET`/`POST /scripted` with the scripted responses in turn (the last one repeats).
private struct ScriptedServer {
    let server: TestHTTPServer

    var url: URL { server.url("scripted") }

    /// Runs `body` with a server answering `answers` in turn, and stops it however `body` ends.
    static func with<Result>(
        _ answers: [HTTPResponse],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ScriptedServer) async throws -> Result
    ) async throws -> Result {
        let remaining = Locked(answers)
        let routes: [String: TestHTTPServer.Handler] = [
            "/scripted": { _ in
                remaining.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
            }
        ]
        return try await TestHTTPServer.withServer(routes) { server in try await body(ScriptedServer(server: server)) }
    }

    func requestCount() async -> Int { await server.log.count(path: "/scripted") }
}

extension HTTPResponse {
    fileprivate static let ok = HTTPResponse(status: 200, body: Data("ok".utf8))
}

/// A fixed sequence of jitter values (the last one repeats).
private final class Randoms: Sendable {
    private let values: Locked<[Double]>

    init(_ values: [Double]) { self.values = Locked(values) }

    var next: @Sendable () -> Double {
        { [values] in values.withLock { list in list.count > 1 ? list.removeFirst() : list[0] } }
    }
}

/// Throws the given errors on the first attempts, then forwards to another transport.
private final class FailingFirst: HTTPTransport {
    private let errors: Locked<[NetworkError]>
    private let count = Locked(0)
    private let base: any HTTPTransport

    init(_ errors: [NetworkError], then base: any HTTPTransport) {
        self.errors = Locked(errors)
        self.base = base
    }

    /// How many times ``send(_:)`` was called.
    var attempts: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        count.withLock { $0 += 1 }
        if let error = errors.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
        return try await base.send(request)
    }
}
