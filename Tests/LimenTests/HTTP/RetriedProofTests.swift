import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import Testing

/// A DPoP-proven request repeated by ``RetryingTransport``: every attempt carries a proof of its own (RFC 9449 §11.1: a
/// server refuses a `jti` it has seen), made by the request's renewal.
@Suite("RetryingTransport with DPoP proofs")
struct RetriedProofTests {
    static let api = URL(string: "https://api.example.com/v1/items?page=2")!

    /// The claims of the `DPoP` proof of `request`.
    static func claims(of request: HTTPRequest) throws -> [String: JSONValue] {
        try UnverifiedJWT(try #require(request.headers["DPoP"])).claims
    }

    /// `request` sent through a retrying transport over `attempts`, with a proof for `token` by a new key.
    static func send(
        _ request: HTTPRequest, token: String = "at-1", over attempts: ScriptedAttempts,
        now: @escaping @Sendable () -> Date
    ) async throws -> HTTPResponse {
        let dpop = DPoPBinding(key: SoftwareDPoPKey(), now: now)
        let transport = RetryingTransport(base: attempts, clock: TestClock(), random: { 0 })
        return try await dpop.send(request, accessToken: token, through: transport)
    }

    @Test("a GET that timed out is repeated with a new proof: another jti, the current iat, the same ath, htm and htu")
    func freshProofAfterTimeout() async throws {
        let attempts = ScriptedAttempts([.failure(.timeout), .success(HTTPResponse(status: 200))])
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let now: @Sendable () -> Date = {
            clock.withLock { time in
                defer { time += 7 }
                return time
            }
        }
        #expect(try await Self.send(HTTPRequest(url: Self.api), over: attempts, now: now).status == 200)

        let sent = await attempts.requests
        try #require(sent.count == 2)
        let (first, second) = (try Self.claims(of: sent[0]), try Self.claims(of: sent[1]))
        #expect(first["jti"] != nil && first["jti"] != second["jti"], "each attempt has its own jti")
        #expect(first["iat"] == .number(1_800_000_000) && second["iat"] == .number(1_800_000_007))
        #expect(first["ath"] == .string(DPoP.accessTokenHash(of: "at-1")) && second["ath"] == first["ath"])
        #expect(second["htm"] == "GET" && second["htu"] == first["htu"])
        #expect(sent.allSatisfy { $0.headers["Authorization"] == "DPoP at-1" })
    }

    @Test("a GET answered 503 with a new DPoP-Nonce is repeated with a proof carrying that nonce")
    func retryCarriesTheNewNonce() async throws {
        let busy = HTTPResponse(status: 503, headers: ["DPoP-Nonce": "n-2"])
        let attempts = ScriptedAttempts([.success(busy), .success(HTTPResponse(status: 200))])
        #expect(try await Self.send(HTTPRequest(url: Self.api), over: attempts, now: Date.init).status == 200)

        let sent = await attempts.requests
        try #require(sent.count == 2)
        #expect(try Self.claims(of: sent[0])["nonce"] == nil)
        #expect(try Self.claims(of: sent[1])["nonce"] == "n-2")
    }

    @Test("a request whose renewal makes nothing is not repeated: the failure stands")
    func noRenewalNoRepeat() async throws {
        let attempts = ScriptedAttempts([.failure(.timeout), .success(HTTPResponse(status: 200))])
        var request = HTTPRequest(url: Self.api)
        request.renewal = HTTPRequestRenewal { _, _ in nil }
        let transport = RetryingTransport(base: attempts, clock: TestClock(), random: { 0 })
        await #expect(throws: NetworkError.timeout) { try await transport.send(request) }
        #expect(await attempts.requests.count == 1)
    }

    @Test("a request without a renewal is repeated as it was")
    func plainRepeat() async throws {
        let attempts = ScriptedAttempts([.failure(.timeout), .success(HTTPResponse(status: 200))])
        let request = HTTPRequest(url: Self.api, headers: ["X-Trace": "t-1"])
        let transport = RetryingTransport(base: attempts, clock: TestClock(), random: { 0 })
        #expect(try await transport.send(request).status == 200)
        #expect(await attempts.requests == [request, request])
    }
}

/// A transport that ends each attempt with the next scripted outcome (the last one again when they run out) and
/// records the requests.
actor ScriptedAttempts: HTTPTransport {
    private var outcomes: [Result<HTTPResponse, NetworkError>]
    /// Every request received, in order.
    private(set) var requests: [HTTPRequest] = []

    init(_ outcomes: [Result<HTTPResponse, NetworkError>]) {
        self.outcomes = outcomes
    }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        requests.append(request)
        return try (outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]).get()
    }
}
