import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Rate limits")
struct RateLimitTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a bucket admits its burst, then tells how long until the next token; keys are independent")
    func tokenBucket() {
        let limiter = RateLimiter(limit: RateLimit(burst: 3, perSecond: 2))
        for _ in 1...3 { #expect(limiter.admit("a", at: start) == nil) }
        #expect(limiter.admit("a", at: start) == 0.5)
        #expect(limiter.admit("b", at: start) == nil)
        #expect(limiter.admit("a", at: start.addingTimeInterval(0.25)) == 0.25)
        #expect(limiter.admit("a", at: start.addingTimeInterval(0.5)) == nil)
        #expect(limiter.admit("a", at: start.addingTimeInterval(0.5)) == 0.5)
    }

    @Test(
        "finding 13: a limit of 0.2/s admits one request every 5 seconds, never none",
        arguments: ["0.2/s", "0.01/s"])
    func slowRate(setting: String) throws {
        let limit = try #require(RateLimit(setting: setting))
        #expect(limit.burst == 1)
        let interval = 1 / limit.perSecond
        let limiter = RateLimiter(limit: limit)
        #expect(limiter.admit("a", at: start) == nil)
        let early = try #require(limiter.admit("a", at: start.addingTimeInterval(1)))
        #expect(abs(early - (interval - 1)) < 1e-9)
        #expect(limiter.admit("a", at: start.addingTimeInterval(interval)) == nil)
        let next = try #require(limiter.admit("a", at: start.addingTimeInterval(interval)))
        #expect(abs(next - interval) < 1e-9)
    }

    @Test(
        "finding 12: IPv6 addresses of one /64 share a bucket, IPv4 (mapped or not) counts per address")
    func ipv6Networks() {
        let limiter = RateLimiter(limit: RateLimit(burst: 1, perSecond: 0.1))
        #expect(limiter.admit("2001:db8:1:2::1", at: start) == nil)
        #expect(limiter.admit("2001:db8:1:2:ffff:ffff:ffff:fffe", at: start) != nil, "the same /64")
        #expect(limiter.admit("2001:db8:1:3::1", at: start) == nil)
        #expect(limiter.admit("198.51.100.7", at: start) == nil)
        #expect(limiter.admit("::ffff:198.51.100.7", at: start) != nil, "the same IPv4 address")
        #expect(limiter.admit("198.51.100.8", at: start) == nil)
    }

    @Test(
        "a client address's network: an IPv6 address by its /64, IPv4 (mapped or not) alone, anything else as it is",
        arguments: [
            ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"), ("2001:DB8::1", "2001:db8:0:0::/64"),
            ("::1", "0:0:0:0::/64"), ("::ffff:203.0.113.7", "203.0.113.7"), ("203.0.113.7", "203.0.113.7"),
            ("unknown", "unknown"),
        ])
    func networkKey(address: String, key: String) {
        #expect(ClientNetwork.key(of: address) == key)
    }

    @Test("past the key limit, full buckets are forgotten and limited ones kept")
    func boundedMemory() {
        let limiter = RateLimiter(limit: RateLimit(burst: 1, perSecond: 1), maximumKeys: 2)
        #expect(limiter.admit("quiet", at: start) == nil)
        #expect(limiter.admit("busy", at: start.addingTimeInterval(10)) == nil)
        // "quiet" has refilled by now and is dropped; "busy" is still empty and must stay limited.
        #expect(limiter.admit("new", at: start.addingTimeInterval(10)) == nil)
        #expect(limiter.admit("busy", at: start.addingTimeInterval(10)) != nil)
    }

    @Test("GET /authorize over its own limit gets 429 with Retry-After; other GETs are not limited")
    func authorizeLimit() async throws {
        try await withLimitedRouter(authorize: RateLimit(burst: 2, perSecond: 0.1)) { client in
            for _ in 1...2 {
                try await client.execute(uri: "/authorize?client_id=limen-cli", method: .get) {
                    #expect($0.status == .badRequest, "refused for its parameters, not its rate")
                }
            }
            try await client.execute(uri: "/authorize?client_id=limen-cli", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "10")
            }
            try await client.execute(uri: "/jwks", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test("POSTs over the limit get 429 with Retry-After, as JSON or as a page; GETs are not limited")
    func middleware() async throws {
        try await withLimitedRouter(post: RateLimit(burst: 2, perSecond: 0.1)) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            for _ in 1...2 {
                try await client.execute(uri: "/authorize", method: .post, headers: form, body: ByteBuffer()) {
                    #expect($0.status != .tooManyRequests)
                }
            }
            try await client.execute(uri: "/authorize", method: .post, headers: form, body: ByteBuffer()) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "10")
                let body = try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
                #expect(body["error"] == "too_many_requests")
            }
            var htmlForm = form
            htmlForm[.accept] = "text/html,application/xhtml+xml"
            try await client.execute(uri: "/authorize", method: .post, headers: htmlForm, body: ByteBuffer()) {
                #expect($0.status == .tooManyRequests)
                #expect($0.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            try await client.execute(uri: "/jwks", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test(
        "finding 3: //path, /path/ and //path/ are counted by the limit of /path, for every limited route",
        .serialized, arguments: LimitedRoute.all)
    func pathVariants(route: LimitedRoute) async throws {
        let limit = RateLimit(burst: Double(route.variants.count), perSecond: 0.1)
        try await withLimitedRouter(
            post: route.limit == .post ? limit : nil, signIn: route.limit == .signIn ? limit : nil,
            authorize: route.limit == .authorize ? limit : nil
        ) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            for variant in route.variants {
                try await client.execute(uri: variant, method: route.method, headers: form, body: ByteBuffer()) {
                    #expect($0.status != .tooManyRequests, "\(variant) is within the burst")
                }
            }
            try await client.execute(uri: "/" + route.path, method: route.method, headers: form, body: ByteBuffer()) {
                #expect($0.status == .tooManyRequests, "the variants used up the burst of /\(route.path)")
                #expect($0.headers[.retryAfter] == "10")
            }
        }
    }

    /// Runs `body` against the router of a provider with these limits (and Sign in with Apple, so that every limited
    /// route exists), on a clock that stands still.
    private func withLimitedRouter(
        post: RateLimit? = nil,
        signIn: RateLimit? = nil,
        authorize: RateLimit? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.postRateLimit = post
        configuration.signInRateLimit = signIn
        configuration.authorizeRateLimit = authorize
        configuration.apple = AppleSignIn(bundleIDs: ["com.example.app"])
        let start = start
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let app = Application(router: LimenServerApplication.router(composition: provider))
        do {
            try await app.test(.router, body)
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}

/// A route a per-address limit counts, and the limit it belongs to.
struct LimitedRoute: Sendable, CustomTestStringConvertible {
    /// The limits of the server.
    enum Limit: Sendable {
        case post, signIn, authorize
    }

    let limit: Limit
    let method: HTTPRequest.Method
    /// The route's path as a client would write it, without leading or trailing `/`.
    let path: String

    var testDescription: String { "\(limit) \(method) /\(path)" }

    /// Every limited route: the sign-in forms and continuations, the starts and `/authorize`, and a POST of the general
    /// limit.
    static let all: [LimitedRoute] =
        FlowPageRoutes.paths.values.sorted().map { LimitedRoute(limit: .signIn, method: .post, path: $0) } + [
            LimitedRoute(limit: .signIn, method: .post, path: "email-link"),
            LimitedRoute(limit: .signIn, method: .post, path: "auth/apple/native"),
            LimitedRoute(limit: .signIn, method: .post, path: "flows/interactions/some-interaction"),
            LimitedRoute(limit: .authorize, method: .get, path: "authorize"),
            LimitedRoute(limit: .authorize, method: .post, path: "authorize"),
            LimitedRoute(limit: .authorize, method: .post, path: "flows/sign-in"),
            LimitedRoute(limit: .post, method: .post, path: "token"),
            LimitedRoute(limit: .post, method: .post, path: "login"),
        ]

    /// The same route spelt as the router reads it too: empty segments and a trailing `/`.
    var variants: [String] { ["//\(path)", "/\(path)/", "//\(path)/"] }
}
