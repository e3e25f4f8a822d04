import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import LimenServer

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
        let live = try await store.consumeAuthorizationCode(hash: Data(repeating: 3, count: 32), now: Self.start)
        #expect(live != nil)
        await store.close()
    }

    @Test("the sweeper stops promptly on graceful shutdown, between sweeps")
    func stopsOnGracefulShutdown() async throws {
        let store = try await storeWithCodes()
        let sweeper = ExpirySweeper(store: store, interval: .seconds(3600), now: { Self.start })
        let group = ServiceGroup(services: [sweeper], gracefulShutdownSignals: [], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await store.close()
    }
}
