import Crypto
import Foundation
import LimenTestSupport
import Testing

@testable import LimenServerStorage

@Suite("Used challenges: each recorded once until it expires, on every store and across nodes")
struct UsedChallengeStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)
    private static let expiresAt = now.addingTimeInterval(300)

    /// The hash a challenge is recorded by.
    private static func hash(_ challenge: String) -> Data {
        Data(SHA256.hash(data: Data(challenge.utf8)))
    }

    @Test(
        "a challenge is recorded as used once; of eight recordings at once exactly one succeeds",
        arguments: StoreUnderTest.allCases)
    func recordedOnce(_ kind: StoreUnderTest) async throws {
        let (now, expiresAt, hash) = (Self.now, Self.expiresAt, Self.hash("first"))
        try await kind.withStore { store in
            let recorded = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.recordUsedChallenge(challengeHash: hash, expiresAt: expiresAt, now: now)
                    }
                }
                return try await group.reduce(into: 0) { count, first in count += first ? 1 : 0 }
            }
            #expect(recorded == 1)
            #expect(try await store.recordUsedChallenge(challengeHash: hash, expiresAt: expiresAt, now: now) == false)
            let another = Self.hash("another")
            #expect(try await store.recordUsedChallenge(challengeHash: another, expiresAt: expiresAt, now: now))
            #expect(try await store.deleteExpiredUsedChallenges(before: now) == 0)
            #expect(try await store.deleteExpiredUsedChallenges(before: expiresAt) == 2)
            let later = expiresAt.addingTimeInterval(1)
            #expect(
                try await store.recordUsedChallenge(challengeHash: hash, expiresAt: later, now: later),
                "a record swept after its expiry no longer refuses (the challenge itself has expired by then)")
        }
    }

    @Test(
        "a challenge used on one node is refused on another node of the same PostgreSQL database",
        .enabled(if: PostgresTestDatabase.unavailableReason == nil, "LIMEN_TEST_POSTGRES_URL is not set"))
    func usedOnAnotherNode() async throws {
        let (now, expiresAt) = (Self.now, Self.expiresAt)
        let (first, url, cleanup) = try await PostgresTestDatabase.make()
        let second = try PostgresTestDatabase.connect(url: url)
        let stop: @Sendable (PostgresStore) async -> Void = { _ in
            await second.close()
            await cleanup()
        }
        try await withStopping(first, stop: stop) { first async throws in
            let hash = Self.hash("on one node")
            #expect(try await first.recordUsedChallenge(challengeHash: hash, expiresAt: expiresAt, now: now))
            #expect(try await second.recordUsedChallenge(challengeHash: hash, expiresAt: expiresAt, now: now) == false)
            let expired = Self.hash("expired")
            #expect(try await first.recordUsedChallenge(challengeHash: expired, expiresAt: now, now: now))
            #expect(
                try await second.recordUsedChallenge(challengeHash: expired, expiresAt: expiresAt, now: now),
                "an expired record is taken over")
        }
    }
}
