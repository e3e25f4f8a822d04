import Foundation
import LimenServerStorage
import Logging
import ServiceLifecycle
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Expiry sweeps")
struct ExpirySweeperTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func storeWithCodes() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        try await store.insertClientIfAbsent(SeedClients.cli(now: Self.start))
        for (byte, lifetime) in [(UInt8(1), 30.0), (2, 60), (3, 600)] {
            try await store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeHash: Data(repeating: byte, count: 32), clientID: "limen-cli",
                    redirectURI: "http://127.0.0.1:1/callback", subject: "user-1", scope: "openid",
                    authTime: Self.start, expiresAt: Self.start.addingTimeInterval(lifetime)
                )
            )
        }
        return store
    }

    @Test("a sweep removes the codes that have expired and keeps the others")
    func sweepRemovesExpired() async throws {
        let store = try await storeWithCodes()
        let sweeper = ExpirySweeper(store: store, now: { Self.start.addingTimeInterval(90) })
        #expect(await sweeper.sweepOnce() == 2)
        #expect(await sweeper.sweepOnce() == 0)
        let live = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 3, count: 32), clientID: "limen-cli", grantID: "g", now: Self.start)
        #expect(live != .unknown)
        await store.close()
    }

    @Test("a sweep removes expired grants with their refresh tokens, expired refresh tokens and stale revocations")
    func sweepRemovesExpiredGrantsAndTokens() async throws {
        let store = try await storeWithCodes()
        let hash = Data(repeating: 1, count: 32)
        #expect(
            try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g1", now: Self.start)
                != .unknown)
        let grant = GrantRecord(
            id: "g1", clientID: "limen-cli", subject: "user-1", scope: "openid", authTime: Self.start,
            createdAt: Self.start, expiresAt: Self.start.addingTimeInterval(1000)
        )
        #expect(try await store.insertGrant(grant, redeemedCodeHash: hash))
        for (byte, lifetime) in [(UInt8(7), 100.0), (8, 1000)] {
            try await store.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: Data(repeating: byte, count: 32), grantID: "g1", issuedAt: Self.start,
                    expiresAt: Self.start.addingTimeInterval(lifetime)
                )
            )
        }
        try await store.revokeAccessToken(jti: "old", expiresAt: Self.start.addingTimeInterval(100))
        try await store.revokeAccessToken(jti: "new", expiresAt: Self.start.addingTimeInterval(2000))

        // At +700 s: the three codes, one refresh token and one revocation have expired.
        #expect(await ExpirySweeper(store: store, now: { Self.start.addingTimeInterval(700) }).sweepOnce() == 5)
        #expect(try await store.refreshToken(hash: Data(repeating: 7, count: 32)) == nil)
        #expect(try await store.refreshToken(hash: Data(repeating: 8, count: 32)) != nil)
        #expect(try await store.isAccessTokenRevoked(jti: "old") == false)
        #expect(try await store.isAccessTokenRevoked(jti: "new"))

        // At +1000 s the grant expires, and its last refresh token goes with it.
        #expect(await ExpirySweeper(store: store, now: { Self.start.addingTimeInterval(1000) }).sweepOnce() == 2)
        #expect(try await store.grant(id: "g1") == nil)
        #expect(try await store.refreshToken(hash: Data(repeating: 8, count: 32)) == nil)
        await store.close()
    }

    @Test("run sweeps once at start, then stops on graceful shutdown without waiting out its hour-long interval")
    func sweepsAtStartThenStopsOnGracefulShutdown() async throws {
        let store = try await storeWithCodes()
        let sweeper = ExpirySweeper(
            store: store, interval: .seconds(3600), now: { Self.start.addingTimeInterval(90) })
        let group = ServiceGroup(services: [sweeper], gracefulShutdownSignals: [], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }

        // The sweep at start removed both expired codes; the live one is still there.
        #expect(await sweeper.sweepOnce() == 0)
        #expect(
            try await store.redeemAuthorizationCode(
                hash: Data(repeating: 1, count: 32), clientID: "limen-cli", grantID: "g", now: Self.start)
                == .unknown)
        #expect(
            try await store.redeemAuthorizationCode(
                hash: Data(repeating: 3, count: 32), clientID: "limen-cli", grantID: "g", now: Self.start)
                != .unknown)
        await store.close()
    }
}

extension ExpirySweeperTests {
    @Test("a sweep deletes the guests idle for keepAnonymousUsersFor and keeps newer guests and users with an identity")
    func sweepRemovesIdleGuests() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.insertUserIfAbsent(UserRecord(id: "old-guest", email: nil, createdAt: start))
        try await store.insertUserIfAbsent(
            UserRecord(id: "new-guest", email: nil, createdAt: start.addingTimeInterval(86_400)))
        try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: start))
        let sweeper = ExpirySweeper(
            store: store, keepAnonymousUsersFor: 30 * 86_400, now: { start.addingTimeInterval(30.5 * 86_400) })
        #expect(await sweeper.sweepOnce() == 1)
        #expect(try await store.user(id: "old-guest") == nil)
        #expect(try await store.user(id: "new-guest") != nil)
        #expect(try await store.user(id: "ada") != nil)
        await store.close()
    }
}
