import Foundation
import Testing

@testable import LimenServer

@Suite("SQLite store")
struct StoreTests {
    @Test("migrations applied twice leave one row per version and the same schema")
    func migrationsAreIdempotent() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let first = try await store.appliedMigrationVersions()
        try await store.migrate()
        let second = try await store.appliedMigrationVersions()
        #expect(first == SQLiteMigrations.all.map(\.version))
        #expect(second == first)
        #expect(try await store.schemaVersion() == SQLiteMigrations.all.last?.version)
        await store.close()
    }

    @Test("a client is inserted once; the second insert with the same ID is ignored")
    func clientInsertedOnce() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let client = SeedClients.cli(now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try await store.insertClientIfAbsent(client))
        #expect(try await store.insertClientIfAbsent(client) == false)
        #expect(try await store.clients() == [client])
        #expect(try await store.client(id: "limen-cli") == client)
        #expect(try await store.client(id: "nobody") == nil)
        await store.close()
    }

    @Test("an authorization code is usable once and not after it expires")
    func authorizationCodeSingleUse() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        func code(_ byte: UInt8, expiresIn seconds: Double) -> AuthorizationCodeRecord {
            AuthorizationCodeRecord(
                codeHash: Data(repeating: byte, count: 32), clientID: "limen-cli",
                redirectURI: "http://127.0.0.1:5000/callback", subject: "user-1", scope: "openid",
                nonce: "n", codeChallenge: String(repeating: "a", count: 43), authTime: now,
                expiresAt: now.addingTimeInterval(seconds)
            )
        }
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        try await store.insertAuthorizationCode(code(2, expiresIn: 60))
        #expect(
            try await store.consumeAuthorizationCode(hash: Data(repeating: 1, count: 32), now: now)
                == code(1, expiresIn: 60))
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 1, count: 32), now: now) == nil)
        let late = now.addingTimeInterval(61)
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 2, count: 32), now: late) == nil)

        try await store.insertAuthorizationCode(code(3, expiresIn: 10))
        try await store.insertAuthorizationCode(code(4, expiresIn: 100))
        #expect(try await store.deleteExpiredAuthorizationCodes(before: now.addingTimeInterval(50)) == 1)
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 4, count: 32), now: now) != nil)
        await store.close()
    }
}
