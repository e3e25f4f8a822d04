import Foundation
import LimenTestSupport
import PostgresNIO
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

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

extension StoreUnderTest {
    /// Runs `body` with a migrated, empty store of this kind, removed however `body` ends.
    func withStore(_ body: (any Store) async throws -> Void) async throws {
        let (store, cleanup) = try await make()
        try await withStopping(store, stop: { _ in await cleanup() }, body)
    }

    /// Runs `body` with a store of this kind migrated only up to `version` (a file for either SQLite kind), removed
    /// however `body` ends: for the tests of a later migration.
    func withStore(migratedTo version: Int, _ body: (any SQLStore) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store: any SQLStore
        let cleanup: @Sendable () async -> Void
        switch self {
        case .postgres:
            let made = try await PostgresTestDatabase.make(migratedTo: version)
            (store, cleanup) = (made.store, made.cleanup)
        case .sqliteInMemory, .sqliteFile:
            let sqlite = try await SQLiteStore.open(path: directory.path + "/limen.sqlite")
            try await sqlite.migrate(SchemaMigrations.all(in: .sqlite).filter { $0.version <= version })
            (store, cleanup) = (sqlite, { await sqlite.close() })
        }
        try await withStopping(store, stop: { _ in await cleanup() }, body)
    }

    /// A migrated store holding the CLI client and one user (`user-1`), for suites whose rows refer to both.
    func makeWithCLIClientAndUser(now: Date) async throws -> (store: any Store, cleanup: @Sendable () async -> Void) {
        let (store, cleanup) = try await make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertUserIfAbsent(UserRecord(id: "user-1", email: "ada@example.com", createdAt: now))
        return (store, cleanup)
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
        let versions = SchemaMigrations.all(in: .postgres).map(\.version)
        #expect(try await store.appliedMigrationVersions() == versions)
        #expect(versions == SchemaMigrations.all(in: .sqlite).map(\.version))
        await cleanup()
    }

    @Test("a provider configured with a database URL keeps its keys and clients in PostgreSQL, not in SQLite")
    func providerOnPostgres() async throws {
        let (store, url, cleanup) = try await PostgresTestDatabase.make()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.usePostgres(url: url)
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
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

    @Test("a store opens no more connections than its pool size, however many queries run at once")
    func poolSize() async throws {
        let (_, url, cleanup) = try await PostgresTestDatabase.make()
        #expect(throws: StorageError.self) { try PostgresStore.connect(url: url, maximumConnections: 0) }
        let store = try PostgresTestDatabase.connect(url: url, maximumConnections: 2)
        // Each query holds its connection a moment, so that twelve at once would need twelve without the cap.
        let backends = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let row = try await store.execute("SELECT pg_backend_pid() AS pid FROM pg_sleep(0.05)")
                    return try #require(row.first).integer("pid")
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect((1...2).contains(backends.count))
        await store.close()
        await cleanup()
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

    @Test("a client's email link URI is kept", arguments: StoreUnderTest.allCases)
    func clientEmailLink(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        var client = SeedClients.cli(now: now)
        client.emailLinkURI = "https://app.example/email-link"
        try await store.insertClientIfAbsent(client)
        #expect(try await store.client(id: "limen-cli")?.emailLinkURI == "https://app.example/email-link")
        await cleanup()
    }

    private func grant(_ id: String, expiresIn seconds: Double = 3600) -> GrantRecord {
        GrantRecord(
            id: id, clientID: "limen-cli", subject: "user-1", scope: "openid", authTime: now, nonce: "n",
            createdAt: now, expiresAt: now.addingTimeInterval(seconds)
        )
    }

    @Test("an authorization code is redeemed once and not after it expires", arguments: StoreUnderTest.allCases)
    func authorizationCodeSingleUse(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        try await store.insertAuthorizationCode(code(2, expiresIn: 60))
        let first = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 1, count: 32), clientID: "limen-cli", grantID: "g1", now: now)
        #expect(first == .redeemed(code(1, expiresIn: 60)))
        let again = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 1, count: 32), clientID: "limen-cli", grantID: "g2", now: now)
        #expect(again == .replayed)
        let late = now.addingTimeInterval(61)
        let expired = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 2, count: 32), clientID: "limen-cli", grantID: "g3", now: late)
        #expect(expired == .unknown)
        let unknown = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 9, count: 32), clientID: "limen-cli", grantID: "g4", now: now)
        #expect(unknown == .unknown)

        try await store.insertAuthorizationCode(code(3, expiresIn: 10))
        try await store.insertAuthorizationCode(code(4, expiresIn: 100))
        // Used codes are kept until they expire (so replays are seen), then swept with the others.
        #expect(try await store.deleteExpiredAuthorizationCodes(before: now.addingTimeInterval(50)) == 1)
        #expect(try await store.deleteExpiredAuthorizationCodes(before: now.addingTimeInterval(61)) == 2)
        let live = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 4, count: 32), clientID: "limen-cli", grantID: "g5", now: now)
        #expect(live != .unknown)
        await cleanup()
    }

    @Test(
        "concurrent redemptions of one code: exactly one succeeds, the others are replays",
        arguments: StoreUnderTest.allCases)
    func concurrentRedemption(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(5, expiresIn: 60))
        let now = now
        let outcomes = try await withThrowingTaskGroup(of: AuthorizationCodeRedemption.self) { group in
            for attempt in 0..<20 {
                group.addTask {
                    try await store.redeemAuthorizationCode(
                        hash: Data(repeating: 5, count: 32), clientID: "limen-cli", grantID: "g\(attempt)", now: now)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .redeemed = $0 { true } else { false } }.count == 1)
        #expect(outcomes.filter { $0 == .replayed }.count == 19)
        await cleanup()
    }

    @Test(
        "a grant is stored for the code that was redeemed for it, and a replay revokes it",
        arguments: StoreUnderTest.allCases)
    func replayRevokesGrant(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        let hash = Data(repeating: 1, count: 32)
        _ = try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g1", now: now)
        #expect(try await store.insertGrant(grant("other"), redeemedCodeHash: hash) == false)
        #expect(try await store.insertGrant(grant("g1"), redeemedCodeHash: hash))
        #expect(try await store.grant(id: "g1") == grant("g1"))
        #expect(try await store.grant(id: "g1")?.isActive(at: now) == true)

        let later = now.addingTimeInterval(5)
        #expect(
            try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g2", now: later)
                == .replayed)
        #expect(try await store.grant(id: "g1")?.revokedAt == later)
        #expect(try await store.grant(id: "g1")?.isActive(at: later) == false)
        await cleanup()
    }

    @Test("a grant whose code was replayed before it was stored is never stored", arguments: StoreUnderTest.allCases)
    func replayBeforeGrantStored(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        let hash = Data(repeating: 1, count: 32)
        _ = try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g1", now: now)
        #expect(
            try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g2", now: now)
                == .replayed)
        #expect(try await store.insertGrant(grant("g1"), redeemedCodeHash: hash) == false)
        #expect(try await store.grant(id: "g1") == nil)
        await cleanup()
    }

    @Test("a grant is revoked once and extended only forwards", arguments: StoreUnderTest.allCases)
    func grantRevocationAndExtension(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(code(1, expiresIn: 60))
        let hash = Data(repeating: 1, count: 32)
        _ = try await store.redeemAuthorizationCode(hash: hash, clientID: "limen-cli", grantID: "g1", now: now)
        #expect(try await store.insertGrant(grant("g1", expiresIn: 600), redeemedCodeHash: hash))
        try await store.extendGrant(id: "g1", until: now.addingTimeInterval(300))
        #expect(try await store.grant(id: "g1")?.expiresAt == now.addingTimeInterval(600))
        try await store.extendGrant(id: "g1", until: now.addingTimeInterval(900))
        #expect(try await store.grant(id: "g1")?.expiresAt == now.addingTimeInterval(900))
        #expect(try await store.revokeGrant(id: "g1", at: now))
        #expect(try await store.revokeGrant(id: "g1", at: now.addingTimeInterval(1)) == false)
        #expect(try await store.grant(id: "g1")?.revokedAt == now)
        #expect(try await store.revokeGrant(id: "nobody", at: now) == false)
        await cleanup()
    }

    @Test("a revoked access token is remembered until it expires", arguments: StoreUnderTest.allCases)
    func accessTokenRevocation(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        #expect(try await store.isAccessTokenRevoked(jti: "j1") == false)
        try await store.revokeAccessToken(jti: "j1", expiresAt: now.addingTimeInterval(600))
        try await store.revokeAccessToken(jti: "j1", expiresAt: now.addingTimeInterval(600))
        #expect(try await store.isAccessTokenRevoked(jti: "j1"))
        #expect(try await store.deleteExpiredAccessTokenRevocations(before: now) == 0)
        #expect(try await store.deleteExpiredAccessTokenRevocations(before: now.addingTimeInterval(600)) == 1)
        #expect(try await store.isAccessTokenRevoked(jti: "j1") == false)
        await cleanup()
    }

    @Test(
        "an exchanged subject token is recorded once until it expires, then may be recorded again",
        arguments: StoreUnderTest.allCases)
    func exchangedTokens(_ kind: StoreUnderTest) async throws {
        let now = now
        try await kind.withStore { store in
            let hash = Data(repeating: 7, count: 32)
            let expiresAt = now.addingTimeInterval(600)
            let first = try await store.recordExchangedToken(tokenHash: hash, expiresAt: expiresAt, now: now)
            let replay = try await store.recordExchangedToken(tokenHash: hash, expiresAt: expiresAt, now: now)
            let other = try await store.recordExchangedToken(
                tokenHash: Data(repeating: 8, count: 32), expiresAt: expiresAt, now: now)
            #expect(first && !replay && other)
            let afterExpiry = try await store.recordExchangedToken(
                tokenHash: hash, expiresAt: expiresAt.addingTimeInterval(600), now: expiresAt)
            #expect(afterExpiry, "an expired record no longer refuses")
            let swept = try await store.deleteExpiredExchangedTokens(before: expiresAt)
            let sweptLater = try await store.deleteExpiredExchangedTokens(before: expiresAt.addingTimeInterval(600))
            #expect(swept == 1 && sweptLater == 1)
        }
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

    @Test(
        "sign-in attempts count up per key, lock at the threshold, refuse while locked, and clear",
        arguments: StoreUnderTest.allCases)
    func signInAttempts(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let policy = SignInLockout(threshold: 3)
        #expect(try await store.countSignInAttempt(key: "k", now: now, lockout: policy) == .admitted(attempts: 1))
        #expect(try await store.countSignInAttempt(key: "k", now: now, lockout: policy) == .admitted(attempts: 2))
        #expect(try await store.countSignInAttempt(key: "other", now: now, lockout: nil) == .admitted(attempts: 1))
        #expect(try await store.countSignInAttempt(key: "k", now: now, lockout: policy) == .admitted(attempts: 3))
        #expect(
            try await store.countSignInAttempt(key: "k", now: now, lockout: policy)
                == .locked(until: now.addingTimeInterval(30)))
        #expect(try await store.deleteSignInFailures(before: now.addingTimeInterval(1)) == 1, "only the unlocked key")
        let later = now.addingTimeInterval(30)
        #expect(try await store.countSignInAttempt(key: "k", now: later, lockout: policy) == .admitted(attempts: 4))
        #expect(
            try await store.countSignInAttempt(key: "k", now: later, lockout: policy)
                == .locked(until: later.addingTimeInterval(60)), "the lock doubles")
        try await store.clearSignInFailures(key: "k")
        #expect(try await store.countSignInAttempt(key: "k", now: later, lockout: policy) == .admitted(attempts: 1))
        await cleanup()
    }

    @Test("the stores lock for as long as the policy says, up to its longest lock", arguments: StoreUnderTest.allCases)
    func signInLockDurations(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let policy = SignInLockout()
        var at = now
        for attempt in 1...12 {
            #expect(
                try await store.countSignInAttempt(key: "k", now: at, lockout: policy) == .admitted(attempts: attempt))
            let lock = policy.lockDuration(afterFailures: attempt) ?? 0
            if lock > 0 {
                #expect(
                    try await store.countSignInAttempt(key: "k", now: at, lockout: policy) == .locked(until: at + lock))
            }
            at += lock
        }
        await cleanup()
    }

    @Test("of 20 parallel attempts on one key, exactly the threshold's get through", arguments: StoreUnderTest.allCases)
    func parallelSignInAttempts(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let now = now
        let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 1...20 {
                group.addTask {
                    if case .admitted = try await store.countSignInAttempt(key: "k", now: now, lockout: SignInLockout())
                    {
                        return true
                    }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 5)
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
        #expect(first == SchemaMigrations.all(in: .sqlite).map(\.version))
        #expect(second == first)
        #expect(try await store.schemaVersion() == SchemaMigrations.all(in: .sqlite).last?.version)
        await store.close()
    }
}
