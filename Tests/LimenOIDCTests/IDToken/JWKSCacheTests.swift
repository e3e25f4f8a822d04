import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("JWKS cache")
struct JWKSCacheTests {
    let url = URL(string: "https://id.example.com/jwks")!
    let transport = RecordingTransport()
    let time = TestNow(Date(timeIntervalSince1970: 1_700_000_000))

    func cache(timeToLive: TimeInterval = 3600) -> JWKSCache {
        JWKSCache(jwksURI: url, transport: transport, timeToLive: timeToLive, now: { [time] in time.now })
    }

    func serveOneKey(kid: String = "k1") async {
        await transport.respond(to: url, json: #"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"\#(kid)","x":"AA"}]}"#)
    }

    @Test("a key set younger than its lifetime is served without a request")
    func servesFromCacheWithinTTL() async throws {
        await serveOneKey()
        let cache = cache()
        _ = try await cache.keySet()
        time.advance(by: 3599)
        let keySet = try await cache.keySet()
        #expect(keySet.keys.map(\.keyID) == ["k1"])
        #expect(await transport.requestCount(for: url) == 1)
    }

    @Test("a key set as old as its lifetime is fetched again")
    func refetchesAfterTTL() async throws {
        await serveOneKey(kid: "k1")
        let cache = cache()
        _ = try await cache.keySet()
        await serveOneKey(kid: "k2")
        time.advance(by: 3600)
        #expect(try await cache.keySet().keys.map(\.keyID) == ["k2"])
        #expect(await transport.requestCount(for: url) == 2)
    }

    @Test("a refresh ahead fetches a key set at least the given age old, and only then; validations then use it")
    func refreshAhead() async throws {
        await serveOneKey(kid: "k1")
        let cache = cache()
        try await cache.refresh(ifOlderThan: 3000)
        #expect(await transport.requestCount(for: url) == 1, "nothing cached: fetched")
        time.advance(by: 2999)
        try await cache.refresh(ifOlderThan: 3000)
        #expect(await transport.requestCount(for: url) == 1, "younger than the age: kept")
        await serveOneKey(kid: "k2")
        time.advance(by: 1)
        try await cache.refresh(ifOlderThan: 3000)
        #expect(await transport.requestCount(for: url) == 2)
        time.advance(by: 3599)
        #expect(try await cache.keySet().keys.map(\.keyID) == ["k2"], "the refreshed set, without another request")
        #expect(await transport.requestCount(for: url) == 2)
    }

    @Test("a refresh ahead is not a forced refresh: an unknown key may still force one at once")
    func refreshAheadLeavesForcedRefresh() async throws {
        await serveOneKey(kid: "k1")
        let cache = cache()
        _ = try await cache.keySet()
        time.advance(by: 3000)
        try await cache.refresh(ifOlderThan: 3000)
        _ = try await cache.keySet(forceRefresh: true)
        #expect(await transport.requestCount(for: url) == 3)
    }

    @Test("concurrent callers needing a fetch share one request")
    func concurrentCallersShareOneFetch() async throws {
        await serveOneKey()
        await transport.hold(url)
        let cache = cache()
        try await withThrowingTaskGroup(of: JSONWebKeySet.self) { group in
            for _ in 0..<8 {
                group.addTask { try await cache.keySet() }
            }
            while await transport.waitingCount(for: url) == 0 {
                await Task.yield()
            }
            for _ in 0..<100 {
                await Task.yield()
            }
            await transport.release(url)
            for try await keySet in group {
                #expect(keySet.keys.count == 1)
            }
        }
        #expect(await transport.requestCount(for: url) == 1)
    }

    @Test("forced refreshes are honoured at most once per minimum interval")
    func forcedRefreshIsRateLimited() async throws {
        await serveOneKey()
        let cache = cache()
        _ = try await cache.keySet()
        _ = try await cache.keySet(forceRefresh: true)
        _ = try await cache.keySet(forceRefresh: true)
        #expect(await transport.requestCount(for: url) == 2)
        time.advance(by: 60)
        _ = try await cache.keySet(forceRefresh: true)
        #expect(await transport.requestCount(for: url) == 3)
    }

    @Test("a non-200 answer is jwksUnavailable with the status")
    func non200IsUnavailable() async throws {
        await transport.respond(to: url, json: "{}", status: 500)
        await #expect(throws: IDTokenValidationError.jwksUnavailable(.httpStatus(500))) {
            try await cache().keySet()
        }
    }

    @Test("a 429 answer is jwksUnavailable as rate limited, with Retry-After")
    func rateLimitedIsUnavailable() async throws {
        await transport.respond(to: url, with: HTTPResponse(status: 429, headers: ["Retry-After": "30"]))
        await #expect(throws: IDTokenValidationError.jwksUnavailable(.rateLimited(retryAfter: 30))) {
            try await cache().keySet()
        }
    }

    @Test(
        "a body that is not a key set is jwksInvalid",
        arguments: ["<html>", "[]", #"{"keys":"none"}"#, #"{"keys":[1]}"#])
    func nonJSONIsInvalid(_ body: String) async throws {
        await transport.respond(to: url, json: body)
        await #expect {
            try await cache().keySet()
        } throws: { error in
            (error as? IDTokenValidationError)?.code == "id_token.jwks_invalid"
        }
    }

    @Test("a failed fetch is not cached")
    func failureIsNotCached() async throws {
        await transport.fail(url, with: .timeout)
        let cache = cache()
        await #expect(throws: IDTokenValidationError.jwksUnavailable(.timeout)) { try await cache.keySet() }
        await serveOneKey()
        #expect(try await cache.keySet().keys.count == 1)
        #expect(await transport.requestCount(for: url) == 2)
    }
}
