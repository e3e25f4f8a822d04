import Foundation
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Identity store: identities follow the user's columns, one upgrade of an anonymous user wins, stale guests go")
struct IdentityStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs `body` on a migrated store of `kind` holding the CLI client, removed after.
    private static func withStore(_ kind: StoreUnderTest, _ body: (any Store) async throws -> Void) async throws {
        let (store, cleanup) = try await kind.make()
        do {
            try await store.insertClientIfAbsent(SeedClients.cli(now: now))
            try await body(store)
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
    }

    private static func anonymous(_ id: String, createdAt: Date = now) -> UserRecord {
        UserRecord(id: id, email: nil, createdAt: createdAt)
    }

    @Test(
        "a user with a password has password and email identities, one without only email, an anonymous one none",
        arguments: StoreUnderTest.allCases)
    func identitiesFollowColumns(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind) { store in
            try await store.insertUserIfAbsent(
                UserRecord(id: "ada", email: "ada@example.com", passwordHash: "hash", createdAt: Self.now))
            try await store.insertUserIfAbsent(UserRecord(id: "bob", email: "bob@example.com", createdAt: Self.now))
            try await store.insertUserIfAbsent(Self.anonymous("guest"))
            #expect(try await store.identities(userID: "ada").map(\.kind).sorted() == ["email", "password"])
            #expect(try await store.identities(userID: "ada").allSatisfy { $0.subject == "ada@example.com" })
            #expect(try await store.identities(userID: "bob").map(\.kind) == ["email"])
            #expect(try await store.identities(userID: "guest").isEmpty)
            #expect(try await store.user(id: "ada")?.identityCount == 2)
            #expect(try await store.user(id: "ada")?.authLevel == .unverified)
            #expect(try await store.user(id: "guest")?.identityCount == 0)
            #expect(try await store.user(id: "guest")?.authLevel == .guest)
            #expect(try await store.user(id: "guest")?.email == nil)
            // A password removed takes its identity with it.
            var ada = try #require(try await store.user(id: "ada"))
            ada.passwordHash = nil
            try await store.updateUser(ada)
            #expect(try await store.identities(userID: "ada").map(\.kind) == ["email"])
            // Several users without an address coexist (the address is unique only where there is one).
            try await store.insertUserIfAbsent(Self.anonymous("guest-2"))
            #expect(try await store.users().filter { $0.email == nil }.count == 2)
        }
    }

    @Test(
        "linking an address to an anonymous user keeps its ID and grants; a taken address or a second link is refused",
        arguments: StoreUnderTest.allCases)
    func linkEmail(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind) { store in
            try await store.insertUserIfAbsent(Self.anonymous("guest"))
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now))
            let grant = GrantRecord(
                id: "g1", clientID: "limen-cli", subject: "guest", scope: "openid", authTime: Self.now,
                createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            try await store.insertGrant(grant)

            #expect(
                try await !store.linkEmail(
                    "ada@example.com", passwordHash: "hash", name: nil, emailVerified: false, toAnonymousUser: "guest"))
            #expect(try await store.user(id: "guest")?.email == nil)

            #expect(
                try await store.linkEmail(
                    "guest@example.com", passwordHash: "hash", name: nil, emailVerified: true, toAnonymousUser: "guest")
            )
            let linked = try #require(try await store.user(id: "guest"))
            #expect(linked.email == "guest@example.com")
            #expect(linked.authLevel == .verified)
            #expect(try await store.identities(userID: "guest").map(\.kind).sorted() == ["email", "password"])
            // A first password ends nothing: the guest's grant (its refresh token) lives on.
            #expect(try await store.grant(id: "g1") != nil)

            #expect(
                try await !store.linkEmail(
                    "other@example.com", passwordHash: nil, name: nil, emailVerified: false, toAnonymousUser: "guest"))
            #expect(
                try await !store.linkEmail(
                    "other@example.com", passwordHash: nil, name: nil, emailVerified: false, toAnonymousUser: "ada"))
            #expect(try await store.user(id: "guest")?.email == "guest@example.com")
        }
    }

    @Test("of two upgrades of one anonymous user racing, exactly one wins", arguments: StoreUnderTest.allCases)
    func raceOneWinner(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind) { store in
            for round in 0..<8 {
                try await store.insertUserIfAbsent(Self.anonymous("guest-\(round)"))
                let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for racer in 0..<4 {
                        group.addTask {
                            try await store.linkEmail(
                                "r\(round)-\(racer)@example.com", passwordHash: "hash-\(racer)", name: nil,
                                emailVerified: false,
                                toAnonymousUser: "guest-\(round)")
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(wins == 1)
                let user = try #require(try await store.user(id: "guest-\(round)"))
                let identities = try await store.identities(userID: "guest-\(round)")
                #expect(identities.count == 2)
                #expect(identities.allSatisfy { $0.subject == user.email })
            }
        }
    }

    @Test(
        "the sweep deletes anonymous users idle past the cut-off, and keeps recent, refreshing and identified ones",
        arguments: StoreUnderTest.allCases)
    func sweep(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind) { store in
            let old = Self.now.addingTimeInterval(-40 * 86_400)
            let cutoff = Self.now.addingTimeInterval(-30 * 86_400)
            try await store.insertUserIfAbsent(Self.anonymous("idle", createdAt: old))
            try await store.insertUserIfAbsent(Self.anonymous("new", createdAt: Self.now))
            try await store.insertUserIfAbsent(Self.anonymous("refreshing", createdAt: old))
            try await store.insertUserIfAbsent(
                UserRecord(id: "ada", email: "ada@example.com", passwordHash: "hash", createdAt: old))
            for (grantID, subject, issuedAt) in [
                ("g-idle", "idle", old), ("g-refreshing", "refreshing", Self.now),
            ] {
                try await store.insertGrant(
                    GrantRecord(
                        id: grantID, clientID: "limen-cli", subject: subject, scope: "openid", authTime: old,
                        createdAt: old, expiresAt: Self.now.addingTimeInterval(86_400)))
                try await store.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenHash: Data(grantID.utf8), grantID: grantID, issuedAt: issuedAt,
                        expiresAt: Self.now.addingTimeInterval(86_400)))
            }
            _ = try await store.writeProfile(userID: "idle", data: ["a": .number(1)], expectedRevision: 0, now: old)

            #expect(try await store.deleteAnonymousUsers(inactiveSince: cutoff) == 1)
            #expect(try await store.user(id: "idle") == nil)
            #expect(try await store.profile(userID: "idle") == nil)
            #expect(try await store.grant(id: "g-idle") == nil)
            for kept in ["new", "refreshing", "ada"] { #expect(try await store.user(id: kept) != nil) }
        }
    }
}

@Suite("Migration 18: users without an address, identities")
struct IdentityMigrationTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(
        "upgrading a store from version 17 keeps every user and every row that refers to one, and backfills identities",
        arguments: [StoreUnderTest.sqliteFile] + (PostgresTestDatabase.unavailableReason == nil ? [.postgres] : []))
    func upgradeKeepsRows(_ kind: StoreUnderTest) async throws {
        try await kind.withStore(migratedTo: 17) { store in
            try await Self.seedVersion17(store)
            try await store.migrate()
            let ada = try #require(try await store.user(id: "ada"))
            #expect(ada.email == "ada@example.com" && ada.passwordHash == "hash" && ada.name == "Ada")
            #expect(try await store.identities(userID: "ada").map(\.kind).sorted() == ["email", "password"])
            #expect(try await store.identities(userID: "bob").map(\.kind) == ["email"])
            #expect(try await store.profile(userID: "ada")?.data == ["a": .number(1)])
            #expect(try await store.grant(id: "g1") != nil)
            #expect(try await store.grant(id: "g1")?.proofKey == nil, "migration 26: its refresh tokens are unbound")
            #expect(try await store.client(id: "limen-cli")?.requiresDPoP == false, "migration 26's default")
            let session = try #require(try await store.browserSession(idHash: Data([1]), now: Self.now))
            #expect(session.methods.values.isEmpty, "migration 27: how it signed in is not known, so acr 0")
            #expect(try await store.execute("SELECT * FROM consents").count == 1)
            #expect(try await store.client(id: "limen-cli")?.isAppToAppHost == false, "migration 23's default")
            // The rebuilt table's triggers: deleting a user still takes their grants, a new password their sessions.
            var bob = try #require(try await store.user(id: "bob"))
            bob.passwordHash = "first"
            try await store.updateUser(bob)
            try await store.deleteUser(id: "ada")
            #expect(try await store.grant(id: "g1") == nil)
            #expect(try await store.profile(userID: "ada") == nil)
            #expect(try await store.identities(userID: "bob").map(\.kind).sorted() == ["email", "password"])
        }
    }

    /// Rows of every kind that refers to a user, written as version 17 had them.
    private static func seedVersion17(_ store: any SQLStore) async throws {
        // The client as version 17 stored it (today's insert names later columns).
        _ = try await store.execute(
            """
            INSERT INTO clients (id, name, kind, is_native, redirect_uris, post_logout_redirect_uris, grant_types,
                is_first_party, id_token_signed_response_alg, created_at)
            VALUES ('limen-cli', 'Limen CLI', 'public', \(true), '[]', '[]', '["authorization_code"]', \(true), 'ES256',
                \(now))
            """)
        let later = now.addingTimeInterval(3600)
        _ = try await store.execute(
            """
            INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
            VALUES ('ada', 'ada@example.com', \(true), 'Ada', 'hash', \(now)),
                ('bob', 'bob@example.com', \(false), NULL, NULL, \(now))
            """)
        _ = try await store.writeProfile(userID: "ada", data: ["a": .number(1)], expectedRevision: 0, now: now)
        // The grant as version 17 stored it (today's insert names later columns).
        _ = try await store.execute(
            """
            INSERT INTO grants (id, client_id, subject, scope, auth_time, created_at, expires_at)
            VALUES ('g1', 'limen-cli', 'ada', 'openid', \(now), \(now), \(later))
            """)
        // The browser session as version 17 stored it (today's insert names later columns).
        _ = try await store.execute(
            """
            INSERT INTO browser_sessions (id_hash, subject, auth_time, expires_at)
            VALUES (\(Data([1])), 'ada', \(now), \(later))
            """)
        _ = try await store.execute(
            "INSERT INTO consents (subject, client_id, scope, granted_at) VALUES ('ada', 'limen-cli', 'openid', \(now))"
        )
    }
}
