import Foundation
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Store conformance: disabled users")
struct UserDisablementStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func user(_ id: String) -> UserRecord {
        UserRecord(id: id, email: "\(id)@example.com", createdAt: now)
    }

    @Test(
        "a user is disabled once and enabled once, each change one admin event; an unknown user is neither",
        arguments: StoreUnderTest.allCases)
    func disableAndEnable(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            try await store.insertUserIfAbsent(user("grace"))
            let disablement = AdminUserDisablement(store: store, now: { now })

            #expect(try await disablement.disable("ada", origin: .commandLine))
            #expect(try await disablement.disable("ada", origin: .commandLine) == false, "disabled already")
            #expect(try await disablement.disable("nobody", origin: .commandLine) == false, "no such user")
            #expect(try await store.disabledAt(userID: "ada") == now)
            #expect(try await disablement.isDisabled("grace") == false)
            #expect(try await disablement.isDisabled("nobody") == false)

            #expect(try await disablement.enable("grace", origin: .commandLine) == false, "never disabled")
            #expect(try await disablement.enable("ada", origin: .commandLine))
            #expect(try await disablement.isDisabled("ada") == false)

            let recorded = try await store.securityEvents(SecurityEventFilter(), limit: 100)
            #expect(recorded.map(\.type).sorted() == ["admin.user_disabled", "admin.user_enabled"])
            #expect(recorded.allSatisfy { $0.user == "ada" && $0.actor == "command_line" })
        }
    }

    @Test(
        "disabling ends the user's browser sessions and grants with the mark, and leaves another user's",
        arguments: StoreUnderTest.allCases)
    func disablingEndsSessions(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertClientIfAbsent(SeedClients.cli(now: now))
            for id in ["ada", "grace"] {
                try await store.insertUserIfAbsent(user(id))
                try await store.insertBrowserSession(
                    BrowserSessionRecord(
                        idHash: Data("session-\(id)".utf8), subject: id, authTime: now,
                        expiresAt: now.addingTimeInterval(3600)))
                try await store.insertGrant(
                    GrantRecord(
                        id: "grant-\(id)", clientID: "limen-cli", subject: id, scope: "openid", authTime: now,
                        nonce: nil, createdAt: now, expiresAt: now.addingTimeInterval(3600)))
            }
            #expect(try await AdminUserDisablement(store: store, now: { now }).disable("ada", origin: .commandLine))
            #expect(try await store.browserSession(idHash: Data("session-ada".utf8), now: now) == nil)
            #expect(try await store.grant(id: "grant-ada") == nil)
            #expect(try await store.browserSession(idHash: Data("session-grace".utf8), now: now) != nil)
            #expect(try await store.grant(id: "grant-grace") != nil)
        }
    }

    @Test(
        "no grant is stored for a disabled user, with or without a code, nor its event; enabled again, one is",
        arguments: StoreUnderTest.allCases)
    func noGrantWhileDisabled(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertClientIfAbsent(SeedClients.cli(now: now))
            try await store.insertUserIfAbsent(user("ada"))
            let code = Data("code".utf8)
            try await store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeHash: code, clientID: "limen-cli", redirectURI: "http://127.0.0.1/cb", subject: "ada",
                    scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60)))
            #expect(
                try await store.redeemAuthorizationCode(hash: code, clientID: "limen-cli", grantID: "coded", now: now)
                    != .unknown)
            // Disabled between the code's redemption and its grant's insert: the disabling unit found no grant.
            #expect(try await store.disableUser("ada", at: now, recording: []))
            let grant = GrantRecord(
                id: "coded", clientID: "limen-cli", subject: "ada", scope: "openid", authTime: now, nonce: nil,
                createdAt: now, expiresAt: now.addingTimeInterval(3600))
            #expect(try await store.insertGrant(grant, redeemedCodeHash: code) == false)
            var direct = grant
            direct.id = "direct"
            let signedIn = SecurityEventRecorder(now: { now }).records(
                [SecurityEvent(.userSignedIn, user: "ada")], from: .commandLine)
            #expect(try await store.insertGrant(direct, recording: signedIn) == false)
            #expect(try await store.grant(id: "coded") == nil)
            #expect(try await store.grant(id: "direct") == nil)
            #expect(try await store.securityEvents(SecurityEventFilter(), limit: 10).isEmpty)

            #expect(try await store.enableUser("ada", recording: []))
            #expect(try await store.insertGrant(direct, recording: signedIn))
            #expect(try await store.grant(id: "direct") != nil)
        }
    }

    @Test(
        "a deleted user's mark goes with them: a new user with the same subject is enabled",
        arguments: StoreUnderTest.allCases)
    func markGoesWithItsUser(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            #expect(try await store.disableUser("ada", at: now, recording: []))
            #expect(try await store.deleteUser(id: "ada"))
            try await store.insertUserIfAbsent(user("ada"))
            #expect(try await store.disabledAt(userID: "ada") == nil)
        }
    }

    @Test(
        "migration 32 on a store of version 31 leaves its users enabled, ready to be disabled",
        arguments: StoreUnderTest.allCases)
    func migration(_ kind: StoreUnderTest) async throws {
        try await kind.withStore(migratedTo: 31) { store in
            try await store.execute(
                """
                INSERT INTO users (id, email, email_verified, name, password_hash, created_at)
                VALUES (\("ada"), \("ada@example.com"), \(false), NULL, NULL, \(now))
                """)
            try await store.migrate()
            #expect(try await store.disabledAt(userID: "ada") == nil)
            #expect(try await store.disableUser("ada", at: now, recording: []))
            #expect(try await store.disabledAt(userID: "ada") == now)
        }
    }
}
