import Foundation
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Store conformance: user roles")
struct UserRoleStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func user(_ id: String) -> UserRecord {
        UserRecord(id: id, email: "\(id)@example.com", createdAt: now)
    }

    private func events(_ store: any Store) async throws -> [SecurityEventRecord] {
        try await store.securityEvents(SecurityEventFilter(), limit: 1000).reversed()
    }

    @Test(
        "the admin role is granted once to an existing user, revoked once, and each change is one admin event",
        arguments: StoreUnderTest.allCases)
    func grantAndRevoke(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            try await store.insertUserIfAbsent(user("grace"))
            let roles = AdminRoles(store: store, now: { now })

            #expect(try await roles.grant(to: "ada", origin: .commandLine))
            #expect(try await roles.grant(to: "ada", origin: .commandLine) == false, "held already")
            #expect(try await roles.grant(to: "nobody", origin: .commandLine) == false, "no such user")
            #expect(try await roles.isAdmin("ada"))
            #expect(try await roles.isAdmin("grace") == false)
            #expect(try await roles.isAdmin("nobody") == false)
            #expect(try await roles.admins() == ["ada"])

            #expect(try await roles.revoke(from: "grace", origin: .commandLine) == false, "never held")
            #expect(try await roles.revoke(from: "ada", origin: .commandLine))
            #expect(try await roles.isAdmin("ada") == false)
            #expect(try await roles.admins().isEmpty)

            let recorded = try await events(store)
            // Both in the same second of the fixed clock: their order within it is not the point.
            #expect(recorded.map(\.type).sorted() == ["admin.role_granted", "admin.role_revoked"])
            #expect(recorded.allSatisfy { $0.user == "ada" && $0.actor == "command_line" })
            #expect(recorded.allSatisfy { $0.details == #"{"role":"admin"}"# })
        }
    }

    @Test(
        "a deleted user's roles go with them: a new user with the same subject is no admin",
        arguments: StoreUnderTest.allCases)
    func rolesGoWithTheirUser(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            try await store.grantRole(.admin, to: "ada", at: now, recording: [])
            #expect(try await store.deleteUser(id: "ada"))
            #expect(try await store.userIDs(holding: .admin).isEmpty)
            try await store.insertUserIfAbsent(user("ada"))
            #expect(try await store.roles(of: "ada").isEmpty)
        }
    }

    @Test("a role this build does not know, written by a newer one, grants nothing", arguments: StoreUnderTest.allCases)
    func unknownRole(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            let sql = try #require(store as? any SQLStore)
            try await sql.execute(
                "INSERT INTO user_roles (user_id, role, granted_at) VALUES (\("ada"), \("superuser"), \(now))")
            #expect(try await store.roles(of: "ada").isEmpty)
        }
    }

    @Test(
        "migration 31 on a store of version 30 leaves its users without roles, ready to be granted one",
        arguments: StoreUnderTest.allCases)
    func migration(_ kind: StoreUnderTest) async throws {
        try await kind.withStore(migratedTo: 30) { store in
            try await store.execute(
                """
                INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
                VALUES (\("ada"), \("ada@example.com"), \(false), NULL, NULL, \(now))
                """)
            try await store.migrate()
            #expect(try await store.roles(of: "ada").isEmpty)
            #expect(try await store.grantRole(.admin, to: "ada", at: now, recording: []))
            #expect(try await store.roles(of: "ada") == [.admin])
        }
    }
}
