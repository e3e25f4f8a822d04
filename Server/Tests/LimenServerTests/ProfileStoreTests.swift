import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Profile store: schema row, compare-and-set writes, deletion with the user")
struct ProfileStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs `body` on a migrated store of `kind` (holding the CLI client and `user-1` when `user`), removed after.
    private static func withStore(
        _ kind: StoreUnderTest,
        user: Bool,
        _ body: (any Store) async throws -> Void
    ) async throws {
        let (store, cleanup) = try await user ? kind.makeWithCLIClientAndUser(now: now) : kind.make()
        try await withStopping(store, stop: { _ in await cleanup() }, body)
    }

    @Test(
        "the first write inserts at revision 1; later writes need the current revision, in one statement",
        arguments: StoreUnderTest.allCases)
    func compareAndSet(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind, user: true) { store async throws in
            #expect(try await store.profile(userID: "user-1") == nil)
            let data: [String: JSONValue] = [
                "nickname": .string("ada"), "address": .object(["city": .string("London")]),
            ]
            #expect(
                try await store.writeProfile(userID: "user-1", data: data, expectedRevision: 1, now: Self.now) == nil,
                "nothing is at revision 1 yet")
            #expect(try await store.writeProfile(userID: "user-1", data: data, expectedRevision: 0, now: Self.now) == 1)
            #expect(
                try await store.writeProfile(userID: "user-1", data: [:], expectedRevision: 0, now: Self.now) == nil,
                "a second first write loses")
            #expect(
                try await store.profile(userID: "user-1")
                    == ProfileRecord(userID: "user-1", data: data, revision: 1, updatedAt: Self.now))
            let later = Self.now.addingTimeInterval(60)
            #expect(
                try await store.writeProfile(
                    userID: "user-1", data: ["age": .number(36)], expectedRevision: 1, now: later) == 2)
            #expect(
                try await store.writeProfile(userID: "user-1", data: [:], expectedRevision: 1, now: later) == nil,
                "a stale revision writes nothing")
            #expect(
                try await store.profile(userID: "user-1")
                    == ProfileRecord(userID: "user-1", data: ["age": .number(36)], revision: 2, updatedAt: later))
            #expect(
                try await store.writeProfile(userID: "nobody", data: [:], expectedRevision: 0, now: later) == nil,
                "no profile without a user")
        }
    }

    @Test("of two concurrent writes from the same revision exactly one succeeds", arguments: StoreUnderTest.allCases)
    func raceOneWinner(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind, user: true) { store async throws in
            for expected in [0, 1] {
                async let first = store.writeProfile(
                    userID: "user-1", data: ["a": .number(1)], expectedRevision: expected, now: Self.now)
                async let second = store.writeProfile(
                    userID: "user-1", data: ["b": .number(2)], expectedRevision: expected, now: Self.now)
                let results = [try await first, try await second]
                #expect(results.compactMap { $0 } == [expected + 1], "\(results)")
            }
        }
    }

    @Test("a user's profile goes with the user", arguments: StoreUnderTest.allCases)
    func cascade(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind, user: true) { store async throws in
            try await store.insertUserIfAbsent(UserRecord(id: "user-2", email: "bob@example.com", createdAt: Self.now))
            #expect(
                try await store.writeProfile(
                    userID: "user-1", data: ["a": .number(1)], expectedRevision: 0, now: Self.now) == 1)
            #expect(
                try await store.writeProfile(
                    userID: "user-2", data: ["b": .number(1)], expectedRevision: 0, now: Self.now) == 1)
            #expect(try await store.deleteUser(id: "user-1"))
            #expect(try await store.profile(userID: "user-1") == nil)
            #expect(try await store.profile(userID: "user-2")?.data == ["b": .number(1)])
        }
    }

    @Test(
        "the token's grant state and its user's profile are read together, the profile absent before a write",
        arguments: StoreUnderTest.allCases)
    func stateAndProfile(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind, user: true) { store async throws in
            let grant = try await store.insertRedeemedGrant(id: "g1", now: Self.now)
            let before = try #require(try await store.accessTokenStateAndProfile(grantID: "g1", jti: "j1"))
            #expect(before.state == AccessTokenState(grant: grant, isTokenRevoked: false))
            #expect(before.profile == nil)
            #expect(
                try await store.writeProfile(
                    userID: "user-1", data: ["a": .number(1)], expectedRevision: 0, now: Self.now)
                    == 1)
            try await store.revokeAccessToken(jti: "j1", expiresAt: Self.now.addingTimeInterval(600))
            let after = try #require(try await store.accessTokenStateAndProfile(grantID: "g1", jti: "j1"))
            #expect(after.state == AccessTokenState(grant: grant, isTokenRevoked: true))
            #expect(
                after.profile
                    == ProfileRecord(userID: "user-1", data: ["a": .number(1)], revision: 1, updatedAt: Self.now))
            #expect(try await store.accessTokenStateAndProfile(grantID: "nobody", jti: "j1") == nil)
        }
    }

    @Test("the app schema is one row, replaced whole", arguments: StoreUnderTest.allCases)
    func schemaRow(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind, user: false) { store async throws in
            #expect(try await store.appSchema() == nil)
            let first = AppSchemaRecord(document: #"{"fields":{}}"#, fileDigest: "abc", updatedAt: Self.now)
            try await store.replaceAppSchema(first)
            #expect(try await store.appSchema() == first)
            let second = AppSchemaRecord(document: #"{"fields":{"a":{}}}"#, fileDigest: nil, updatedAt: Self.now)
            try await store.replaceAppSchema(second)
            #expect(try await store.appSchema() == second)
        }
    }
}
