import Foundation
import Testing

@testable import LimenServer

/// Every `Store` implementation the conformance tests run against; PostgreSQL when it is configured (always in CI).
enum StoreUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteInMemory
    case sqliteFile
    case postgres

    static var allCases: [StoreUnderTest] {
        [.sqliteInMemory, .sqliteFile] + (PostgresTestDatabase.unavailableReason == nil ? [.postgres] : [])
    }

    var testDescription: String { rawValue }

    /// A migrated, empty store and what removes it.
    func make() async throws -> (store: any Store, cleanup: @Sendable () async -> Void) {
        switch self {
        case .sqliteInMemory:
            let store = try await SQLiteStore.inMemory()
            try await store.migrate()
            return (store, { await store.close() })
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let store = try await SQLiteStore.open(path: directory.path + "/limen.sqlite")
            try await store.migrate()
            return (
                store,
                {
                    await store.close()
                    directory.remove()
                }
            )
        case .postgres:
            let (store, _, cleanup) = try await PostgresTestDatabase.make()
            return (store, cleanup)
        }
    }
}

@Suite("PostgreSQL store", .enabled(if: PostgresTestDatabase.unavailableReason == nil, "PostgreSQL is not configured"))
struct PostgresStoreTests {
    @Test("the conformance suite includes PostgreSQL, whose migrations apply once even when run twice at once")
    func migrations() async throws {
        #expect(StoreUnderTest.allCases.contains(.postgres))
        let (store, _, cleanup) = try await PostgresTestDatabase.make()
        async let first: Void = store.migrate()
        async let second: Void = store.migrate()
        _ = try await (first, second)
        #expect(try await store.appliedMigrationVersions() == PostgresMigrations.all.map(\.version))
        #expect(PostgresMigrations.all.map(\.version) == SQLiteMigrations.all.map(\.version))
        await cleanup()
    }

    @Test("a provider configured with a database URL keeps its keys and clients in PostgreSQL, not in SQLite")
    func providerOnPostgres() async throws {
        let (store, url, cleanup) = try await PostgresTestDatabase.make()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.databaseURL = url
        let provider = try await Provider.bootstrap(configuration: configuration)
        #expect(provider.store is PostgresStore)
        await provider.store.close()
        #expect(Set(try await store.signingKeys().map(\.kid)) == Set(provider.keys.keys.map(\.kid)))
        #expect(try await store.client(id: SeedClients.cliClientID) != nil)
        #expect(!FileManager.default.fileExists(atPath: configuration.databasePath))
        await cleanup()
    }

    @Test(
        "a malformed URL or sslmode is refused with a clear error",
        arguments: [
            "mysql://limen@127.0.0.1/limen", "postgres://127.0.0.1/limen",
            "postgres://limen@127.0.0.1/limen?sslmode=maybe",
        ])
    func malformedURL(_ url: String) {
        #expect(throws: StorageError.self) { try PostgresStore.connect(url: url) }
    }
}

@Suite("Store conformance")
struct StoreConformanceTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func code(_ byte: UInt8, expiresIn seconds: Double) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: Data(repeating: byte, count: 32), clientID: "limen-cli",
            redirectURI: "http://127.0.0.1:5000/callback", subject: "user-1", scope: "openid",
            nonce: "n", codeChallenge: String(repeating: "a", count: 43), authTime: now,
            expiresAt: now.addingTimeInterval(seconds)
        )
    }

    @Test("migrating again changes nothing", arguments: StoreUnderTest.allCases)
    func migrateAgain(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.migrate()
        #expect(try await store.clients().count == 1)
        await cleanup()
    }

    @Test(
        "a client is inserted once; the second insert with the same ID is ignored", arguments: StoreUnderTest.allCases)
    func clientInsertedOnce(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let client = SeedClients.cli(now: now)
        #expect(try await store.insertClientIfAbsent(client))
        #expect(try await store.insertClientIfAbsent(client) == false)
        #expect(try await store.clients() == [client])
        #expect(try await store.client(id: "limen-cli") == client)
        #expect(try await store.client(id: "nobody") == nil)
        await cleanup()
    }

    @Test("an authorization code is usable once and not after it expires", arguments: StoreUnderTest.allCases)
    func authorizationCodeSingleUse(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        try await store.insertAuthorizationCode(code(2, expiresIn: 60))
        let first = try await store.consumeAuthorizationCode(hash: Data(repeating: 1, count: 32), now: now)
        #expect(first == code(1, expiresIn: 60))
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 1, count: 32), now: now) == nil)
        let late = now.addingTimeInterval(61)
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 2, count: 32), now: late) == nil)

        try await store.insertAuthorizationCode(code(3, expiresIn: 10))
        try await store.insertAuthorizationCode(code(4, expiresIn: 100))
        #expect(try await store.deleteExpiredAuthorizationCodes(before: now.addingTimeInterval(50)) == 1)
        #expect(try await store.consumeAuthorizationCode(hash: Data(repeating: 4, count: 32), now: now) != nil)
        await cleanup()
    }

    @Test("concurrent redemptions of one code: exactly one succeeds", arguments: StoreUnderTest.allCases)
    func concurrentRedemption(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(5, expiresIn: 60))
        let now = now
        let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.consumeAuthorizationCode(hash: Data(repeating: 5, count: 32), now: now) != nil
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
        await cleanup()
    }

    @Test("signing keys keep their times and can be retired", arguments: StoreUnderTest.allCases)
    func signingKeyRoundTrip(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let record = SigningKeyRecord(
            kid: "k1", algorithm: "ES256", encryptedPrivateKey: Data([1, 2, 3]), createdAt: now,
            activatesAt: now.addingTimeInterval(60)
        )
        try await store.insertSigningKey(record)
        #expect(try await store.signingKeys() == [record])
        try await store.retireSigningKey(kid: "k1", at: now.addingTimeInterval(120))
        #expect(try await store.signingKeys().first?.retiredAt == now.addingTimeInterval(120))
        await cleanup()
    }

    @Test(
        "a user is found by subject and by email; a second user with the same email is ignored",
        arguments: StoreUnderTest.allCases)
    func users(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let ada = UserRecord(
            id: "u-1", email: "ada@example.com", emailVerified: true, name: "Ada", passwordHash: "$scrypt$x",
            createdAt: now)
        let grace = UserRecord(id: "u-2", email: "grace@example.com", createdAt: now.addingTimeInterval(1))
        #expect(try await store.insertUserIfAbsent(ada))
        #expect(try await store.insertUserIfAbsent(grace))
        #expect(!(try await store.insertUserIfAbsent(UserRecord(id: "u-3", email: "ada@example.com", createdAt: now))))
        #expect(try await store.user(id: "u-1") == ada)
        #expect(try await store.user(email: "grace@example.com") == grace)
        #expect(try await store.user(email: "nobody@example.com") == nil)
        #expect(try await store.users().map(\.id) == ["u-1", "u-2"])
        await cleanup()
    }

    @Test("failed sign-ins count up per key, lock, and clear", arguments: StoreUnderTest.allCases)
    func signInFailures(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        #expect(try await store.recordSignInFailure(key: "k", now: now) == 1)
        #expect(try await store.recordSignInFailure(key: "k", now: now) == 2)
        #expect(try await store.recordSignInFailure(key: "other", now: now) == 1)
        #expect(try await store.signInLockedUntil(key: "k") == nil)
        try await store.lockSignIn(key: "k", until: now.addingTimeInterval(30))
        #expect(try await store.signInLockedUntil(key: "k") == now.addingTimeInterval(30))
        #expect(try await store.deleteSignInFailures(before: now.addingTimeInterval(1)) == 1, "only the unlocked key")
        try await store.clearSignInFailures(key: "k")
        #expect(try await store.signInLockedUntil(key: "k") == nil)
        #expect(try await store.recordSignInFailure(key: "k", now: now) == 1)
        await cleanup()
    }
}

@Suite("SQLite migrations")
struct SQLiteMigrationTests {
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
}
