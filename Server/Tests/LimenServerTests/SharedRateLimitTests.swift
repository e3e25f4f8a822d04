import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import NIOCore
import Synchronization
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Rate limits for the deployment: the nodes of one database share what they admit")
struct SharedRateLimitTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a shared limiter counts what it admits, never what it refuses; the largest counts are kept when bounded")
    func admittedCounts() {
        let limiter = RateLimiter(limit: RateLimit(burst: 3, perSecond: 0.1), isShared: true)
        for _ in 1...5 { _ = limiter.admit("198.51.100.7", at: Self.start) }
        _ = limiter.admit("198.51.100.8", at: Self.start)
        #expect(limiter.takeAdmitted(atMost: 10) == ["198.51.100.7": 3, "198.51.100.8": 1])
        #expect(limiter.takeAdmitted(atMost: 10).isEmpty, "taken once")
        for address in ["198.51.100.9", "198.51.100.9", "198.51.100.10"] { _ = limiter.admit(address, at: Self.start) }
        #expect(limiter.takeAdmitted(atMost: 1) == ["198.51.100.9": 2])

        let own = RateLimiter(limit: RateLimit(burst: 3, perSecond: 0.1))
        _ = own.admit("198.51.100.7", at: Self.start)
        #expect(own.takeAdmitted(atMost: 10).isEmpty, "a node's own limiter keeps no counts")
    }

    @Test("what other nodes admitted is taken off the bucket, which may owe at most one burst")
    func debit() {
        let limiter = RateLimiter(limit: RateLimit(burst: 3, perSecond: 1))
        limiter.debit(["198.51.100.7": 2], at: Self.start)
        #expect(limiter.admit("198.51.100.7", at: Self.start) == nil)
        #expect(limiter.admit("198.51.100.7", at: Self.start) == 1)
        limiter.debit(["198.51.100.8": 100], at: Self.start)
        #expect(limiter.admit("198.51.100.8", at: Self.start) == 4, "from minus one burst to one token: 4 s at 1/s")
    }

    @Test("two nodes on one store: what one admits is taken off the other's buckets once, and old windows are deleted")
    func twoNodesExchange() async throws {
        let store = try await SQLiteStore.inMemory()
        do {
            try await store.migrate()
            let clock = Clock(Self.start)
            var configuration = ServerConfiguration()
            configuration.databaseURL = "postgres://limen@db.internal/limen"  // several nodes: the limiters are shared
            configuration.postRateLimit = RateLimit(burst: 4, perSecond: 0.1)
            let (limitersA, limitersB) = (
                RateLimiters(configuration: configuration), RateLimiters(configuration: configuration)
            )
            let nodeA = RateLimitSharing(limiters: limitersA, store: store, node: "a", now: clock.now)
            let nodeB = RateLimitSharing(limiters: limitersB, store: store, node: "b", now: clock.now)
            let (postA, postB) = (try #require(limitersA.post), try #require(limitersB.post))

            for _ in 1...3 { #expect(postA.admit("198.51.100.7", at: Self.start) == nil) }
            await nodeA.exchange()
            await nodeB.exchange()
            #expect(postB.admit("198.51.100.7", at: Self.start) == nil, "one of four left")
            #expect(postB.admit("198.51.100.7", at: Self.start) != nil, "node A's three count on node B")
            #expect(postB.admit("198.51.100.8", at: Self.start) == nil, "another address is not limited")
            await nodeB.exchange()
            await nodeB.exchange()
            clock.advance(by: 10)
            #expect(postB.admit("198.51.100.7", at: clock.now()) == nil, "refilled, and node A's counted only once")
            await nodeB.exchange()
            await nodeA.exchange()
            #expect(postA.admit("198.51.100.7", at: clock.now()) != nil, "node B's admissions count on node A")

            clock.advance(by: 7 * RateLimitSharing.windowLength)
            await nodeA.exchange()
            #expect(try await store.rateCounts(fromWindow: 0, excludingNode: "c").isEmpty, "windows past are deleted")
        } catch {
            await store.close()  // an open connection must not be left to its deinit
            throw error
        }
        await store.close()
    }

    @Test(
        "behind two nodes on one PostgreSQL database an address gets the configured rate, not twice it",
        .enabled(if: PostgresTestDatabase.unavailableReason == nil, "PostgreSQL is not configured"))
    func twoNodesOnPostgres() async throws {
        let (store, url, cleanup) = try await PostgresTestDatabase.make()
        await store.close()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.usePostgres(url: url)
        configuration.postRateLimit = RateLimit(burst: 2, perSecond: 0.1)
        let start = Self.start
        let nodeA = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let nodeB = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        let post = { (node: ServerComposition) in
            try await Application(router: LimenServerApplication.router(composition: node)).test(.router) { client in
                try await client.execute(uri: "/revoke", method: .post, headers: form, body: ByteBuffer()) { $0.status }
            }
        }
        #expect(try await post(nodeA) != .tooManyRequests)
        #expect(try await post(nodeA) != .tooManyRequests)
        #expect(try await post(nodeB) != .tooManyRequests, "before the nodes exchange, node B has its own burst")
        await nodeA.rateLimitSharing.exchange()
        await nodeB.rateLimitSharing.exchange()
        #expect(try await post(nodeB) == .tooManyRequests, "node A's two requests count on node B")
        #expect(try await post(nodeA) == .tooManyRequests)
        await nodeA.store.close()
        await nodeB.store.close()
        await cleanup()
    }

    /// A clock the test moves.
    private final class Clock: Sendable {
        private let date: Mutex<Date>
        init(_ date: Date) { self.date = Mutex(date) }
        var now: @Sendable () -> Date { { self.date.withLock { $0 } } }
        func advance(by seconds: TimeInterval) { date.withLock { $0.addTimeInterval(seconds) } }
    }
}
