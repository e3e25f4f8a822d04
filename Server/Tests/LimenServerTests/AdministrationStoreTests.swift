import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Store conformance: administration")
struct AdministrationStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("the admin token's hash is absent, set, replaced and removed", arguments: StoreUnderTest.allCases)
    func adminTokenHash(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        #expect(try await store.adminTokenHash() == nil)
        try await store.setAdminTokenHash(Data(repeating: 1, count: 32), at: now)
        #expect(try await store.adminTokenHash() == Data(repeating: 1, count: 32))
        try await store.setAdminTokenHash(Data(repeating: 2, count: 32), at: now)
        #expect(try await store.adminTokenHash() == Data(repeating: 2, count: 32))
        try await store.setAdminTokenHash(nil, at: now)
        #expect(try await store.adminTokenHash() == nil)
        await cleanup()
    }

    @Test("a client's own token lifetimes are kept, and absent ones stay absent", arguments: StoreUnderTest.allCases)
    func clientLifetimes(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let own = ClientRecord(
            id: "own", name: "Own", kind: .public, redirectURIs: ["http://127.0.0.1/cb"], accessTokenLifetime: 120,
            refreshTokenLifetime: 86_400, createdAt: now)
        let server = ClientRecord(id: "server", name: "Server", kind: .public, redirectURIs: [], createdAt: now)
        try await store.insertClientIfAbsent(own)
        try await store.insertClientIfAbsent(server)
        #expect(try await store.client(id: "own") == own)
        #expect(try await store.client(id: "server")?.accessTokenLifetime == nil)
        #expect(try await store.client(id: "server")?.refreshTokenLifetime == nil)
        await cleanup()
    }

    @Test("users are paged by subject after a given one", arguments: StoreUnderTest.allCases)
    func userPages(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        for id in ["u-C", "u-a", "u-b", "U-z"] {
            try await store.insertUserIfAbsent(UserRecord(id: id, email: "\(id)@example.com", createdAt: now))
        }
        #expect(try await store.users(after: nil, limit: 2).map(\.id) == ["U-z", "u-C"], "byte order")
        #expect(try await store.users(after: "u-C", limit: 2).map(\.id) == ["u-a", "u-b"])
        #expect(try await store.users(after: "u-b", limit: 2).map(\.id) == [])
        #expect(try await store.users(after: "gone", limit: 10).count == 3, "a deleted cursor still pages")
        await cleanup()
    }

    @Test(
        "deleting a user removes their grants, refresh tokens, codes, sessions and consents, and no one else's",
        arguments: StoreUnderTest.allCases)
    func deleteUser(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await adaAndGrace(kind)

        #expect(try await store.deleteUser(id: "ada"))
        #expect(try await store.user(id: "ada") == nil)
        #expect(try await store.grant(id: "grant-ada") == nil)
        #expect(try await store.refreshToken(hash: hash("refresh-ada")) == nil)
        #expect(try await store.redeemedCode(hash: hash("pending-ada"), now: now) == nil)
        #expect(try await store.browserSession(idHash: hash("session-ada"), now: now) == nil)
        #expect(try await store.grantedScopes(subject: "ada", clientID: "limen-cli").isEmpty)

        #expect(try await store.grant(id: "grant-grace") != nil)
        #expect(try await store.refreshToken(hash: hash("refresh-grace")) != nil)
        #expect(try await store.browserSession(idHash: hash("session-grace"), now: now) != nil)
        #expect(try await store.grantedScopes(subject: "grace", clientID: "limen-cli") == ["openid"])
        #expect(try await store.redeemedCode(hash: hash("pending-grace"), now: now) != nil)

        #expect(try await store.deleteUser(id: "ada") == false)
        await cleanup()
    }

    @Test(
        "changing a user's name or verified flag keeps what they hold; a new password hash ends it, and no one else's",
        arguments: StoreUnderTest.allCases)
    func updateUser(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await adaAndGrace(kind)
        var ada = try #require(try await store.user(id: "ada"))
        ada.name = "Ada"
        ada.emailVerified = true
        ada.email = "ignored@example.com"
        #expect(try await store.updateUser(ada))
        let renamed = try #require(try await store.user(id: "ada"))
        #expect(renamed.name == "Ada" && renamed.emailVerified && renamed.email == "ada@example.com")
        #expect(try await store.grant(id: "grant-ada") != nil)
        #expect(try await store.browserSession(idHash: hash("session-ada"), now: now) != nil)

        ada.passwordHash = "new"
        #expect(try await store.updateUser(ada))
        #expect(try await store.user(id: "ada")?.passwordHash == "new")
        #expect(try await store.grant(id: "grant-ada") == nil)
        #expect(try await store.refreshToken(hash: hash("refresh-ada")) == nil)
        #expect(try await store.redeemedCode(hash: hash("pending-ada"), now: now) == nil)
        #expect(try await store.browserSession(idHash: hash("session-ada"), now: now) == nil)
        #expect(try await store.grantedScopes(subject: "ada", clientID: "limen-cli") == ["openid"], "consent stays")

        #expect(try await store.grant(id: "grant-grace") != nil)
        #expect(try await store.refreshToken(hash: hash("refresh-grace")) != nil)
        #expect(try await store.browserSession(idHash: hash("session-grace"), now: now) != nil)
        #expect(try await store.redeemedCode(hash: hash("pending-grace"), now: now) != nil)

        ada.id = "nobody"
        #expect(try await store.updateUser(ada) == false)
        await cleanup()
    }

    @Test(
        "signing a user out everywhere ends their grants, refresh tokens, codes and sessions, and nobody else's",
        arguments: StoreUnderTest.allCases)
    func everySession(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await adaAndGrace(kind)
        let sessions = AdminUserSessions(store: store, now: { now })
        let before = try await sessions.sessions(of: "ada")
        #expect(before.grants.map(\.id) == ["grant-ada"])
        #expect(before.browserSessions.map(\.idHash) == [hash("session-ada")])
        #expect(try await sessions.revokeAll(of: "nobody", origin: .commandLine) == false, "no such user")
        #expect(try await sessions.revokeAll(of: "ada", origin: .commandLine))
        let recorded = try await store.securityEvents(SecurityEventFilter(), limit: 10)
        #expect(recorded.map(\.type) == ["admin.sessions_revoked"], "one event, for the user who exists")
        #expect(recorded.first?.user == "ada")
        #expect(try await sessions.sessions(of: "ada") == AdminUserSessions.Sessions(grants: [], browserSessions: []))
        #expect(try await store.grant(id: "grant-ada") == nil)
        #expect(try await store.refreshToken(hash: hash("refresh-ada")) == nil)
        #expect(try await store.redeemedCode(hash: hash("pending-ada"), now: now) == nil)
        #expect(try await store.browserSession(idHash: hash("session-ada"), now: now) == nil)
        #expect(try await store.user(id: "ada") != nil, "the account stays")
        #expect(try await store.grant(id: "grant-grace") != nil)
        #expect(try await store.refreshToken(hash: hash("refresh-grace")) != nil)
        #expect(try await store.browserSession(idHash: hash("session-grace"), now: now) != nil)
        #expect(try await store.redeemedCode(hash: hash("pending-grace"), now: now) != nil)
        await cleanup()
    }

    private func hash(_ text: String) -> Data {
        RandomIdentifier.hash(text)
    }

    /// A store with the CLI client and two users, `ada` and `grace` (password hash "old"), each holding what
    /// ``issue(to:in:)`` gives.
    private func adaAndGrace(_ kind: StoreUnderTest) async throws -> (any Store, @Sendable () async -> Void) {
        let (store, cleanup) = try await kind.make()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        for subject in ["ada", "grace"] {
            try await store.insertUserIfAbsent(
                UserRecord(id: subject, email: "\(subject)@example.com", passwordHash: "old", createdAt: now))
            try await issue(to: subject, in: store)
        }
        return (store, cleanup)
    }

    /// A grant with a refresh token, an unredeemed code, a browser session and a consent for `subject`.
    private func issue(to subject: String, in store: any Store) async throws {
        for code in ["redeemed-\(subject)", "pending-\(subject)"] {
            try await store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeHash: hash(code), clientID: "limen-cli", redirectURI: "http://127.0.0.1/cb",
                    subject: subject, scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60)))
        }
        _ = try await store.redeemAuthorizationCode(
            hash: hash("redeemed-\(subject)"), clientID: "limen-cli", grantID: "grant-\(subject)", now: now)
        let grant = GrantRecord(
            id: "grant-\(subject)", clientID: "limen-cli", subject: subject, scope: "openid", authTime: now,
            nonce: nil, createdAt: now, expiresAt: now.addingTimeInterval(3600))
        #expect(try await store.insertGrant(grant, redeemedCodeHash: hash("redeemed-\(subject)")))
        try await store.insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: hash("refresh-\(subject)"), grantID: grant.id, issuedAt: now,
                expiresAt: now.addingTimeInterval(3600)))
        try await store.insertBrowserSession(
            BrowserSessionRecord(
                idHash: hash("session-\(subject)"), subject: subject, authTime: now,
                expiresAt: now.addingTimeInterval(3600)))
        try await store.recordConsent(subject: subject, clientID: "limen-cli", scopes: ["openid"], at: now)
    }
}
