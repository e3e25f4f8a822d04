import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Store conformance: pending requests, browser sessions, consents")
struct SignInStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A migrated store with the CLI client and one user (`user-1`).
    private func make(_ kind: StoreUnderTest) async throws -> (store: any Store, cleanup: @Sendable () async -> Void) {
        try await kind.makeWithCLIClientAndUser(now: now)
    }

    private func pending(_ byte: UInt8, expiresIn seconds: Double) -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            idHash: Data(repeating: byte, count: 32), clientID: "limen-cli",
            redirectURI: "http://127.0.0.1:5000/callback", scope: "openid email", state: "s", nonce: "n",
            codeChallenge: String(repeating: "a", count: 43), prompt: "login consent", maxAge: 0,
            loginHint: "ada@example.com", hintedSubject: "user-1", uiLocales: "en-GB", createdAt: now,
            expiresAt: now.addingTimeInterval(seconds)
        )
    }

    private func session(_ byte: UInt8, expiresIn seconds: Double) -> BrowserSessionRecord {
        BrowserSessionRecord(
            idHash: Data(repeating: byte, count: 32), subject: "user-1", authTime: now,
            expiresAt: now.addingTimeInterval(seconds))
    }

    @Test(
        "a pending request round-trips every field, is found until it expires, and is consumed once",
        arguments: StoreUnderTest.allCases)
    func pendingRequests(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        try await store.insertPendingAuthorization(pending(1, expiresIn: 600))
        #expect(
            try await store.pendingAuthorization(idHash: Data(repeating: 1, count: 32), now: now)
                == pending(1, expiresIn: 600))
        let late = now.addingTimeInterval(600)
        #expect(try await store.pendingAuthorization(idHash: Data(repeating: 1, count: 32), now: late) == nil)
        let consumed = try await store.consumePendingAuthorization(idHash: Data(repeating: 1, count: 32), now: now)
        #expect(consumed == pending(1, expiresIn: 600))
        #expect(try await store.consumePendingAuthorization(idHash: Data(repeating: 1, count: 32), now: now) == nil)
        await cleanup()
    }

    @Test(
        "a pending request keeps its browser binding and records, until it expires, the session that signed in for it",
        arguments: StoreUnderTest.allCases)
    func pendingSignInRecorded(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        var record = pending(3, expiresIn: 600)
        record.browserBinding = Data(repeating: 9, count: 32)
        try await store.insertPendingAuthorization(record)
        let id = Data(repeating: 3, count: 32)
        #expect(try await store.pendingAuthorization(idHash: id, now: now) == record)
        let session = Data(repeating: 5, count: 32)
        #expect(try await store.recordPendingAuthorizationSignIn(idHash: id, sessionHash: session, now: now))
        record.signInSessionHash = session
        #expect(try await store.pendingAuthorization(idHash: id, now: now) == record)
        let late = now.addingTimeInterval(600)
        #expect(try await store.recordPendingAuthorizationSignIn(idHash: id, sessionHash: session, now: late) == false)
        #expect(
            try await store.recordPendingAuthorizationSignIn(
                idHash: Data(repeating: 4, count: 32), sessionHash: session, now: now) == false)
        await cleanup()
    }

    @Test(
        "of two concurrent consumptions of one pending request, exactly one gets it", arguments: StoreUnderTest.allCases
    )
    func pendingConsumedOnceConcurrently(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        try await store.insertPendingAuthorization(pending(2, expiresIn: 600))
        let now = now
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await store.consumePendingAuthorization(idHash: Data(repeating: 2, count: 32), now: now) != nil
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
        await cleanup()
    }

    @Test("a browser session is found until it expires, ends once, and is swept", arguments: StoreUnderTest.allCases)
    func browserSessions(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        try await store.insertBrowserSession(session(1, expiresIn: 3600))
        try await store.insertBrowserSession(session(2, expiresIn: 60))
        #expect(
            try await store.browserSession(idHash: Data(repeating: 1, count: 32), now: now)
                == session(1, expiresIn: 3600))
        #expect(
            try await store.browserSession(idHash: Data(repeating: 2, count: 32), now: now.addingTimeInterval(60))
                == nil)
        #expect(try await store.deleteExpiredBrowserSessions(before: now.addingTimeInterval(60)) == 1)
        #expect(try await store.deleteBrowserSession(idHash: Data(repeating: 1, count: 32)))
        #expect(try await store.deleteBrowserSession(idHash: Data(repeating: 1, count: 32)) == false)
        await cleanup()
    }

    @Test("consents add up per user and client", arguments: StoreUnderTest.allCases)
    func consents(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        #expect(try await store.grantedScopes(subject: "user-1", clientID: "limen-cli").isEmpty)
        try await store.recordConsent(subject: "user-1", clientID: "limen-cli", scopes: ["openid", "profile"], at: now)
        try await store.recordConsent(subject: "user-1", clientID: "limen-cli", scopes: ["openid", "email"], at: now)
        #expect(
            try await store.grantedScopes(subject: "user-1", clientID: "limen-cli") == ["openid", "profile", "email"])
        #expect(try await store.grantedScopes(subject: "user-2", clientID: "limen-cli").isEmpty)
        await cleanup()
    }

    @Test("deleting the client removes its pending requests and consents", arguments: StoreUnderTest.allCases)
    func clientDeletionCascades(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        try await store.insertPendingAuthorization(pending(3, expiresIn: 600))
        try await store.recordConsent(subject: "user-1", clientID: "limen-cli", scopes: ["openid"], at: now)
        try await store.deleteClient(id: "limen-cli")
        #expect(try await store.pendingAuthorization(idHash: Data(repeating: 3, count: 32), now: now) == nil)
        #expect(try await store.grantedScopes(subject: "user-1", clientID: "limen-cli").isEmpty)
        await cleanup()
    }

    @Test("the sweeper removes expired pending requests and browser sessions and keeps live ones")
    func sweeperRemovesExpired() async throws {
        let (store, cleanup) = try await make(.sqliteInMemory)
        try await store.insertPendingAuthorization(pending(1, expiresIn: 60))
        try await store.insertPendingAuthorization(pending(2, expiresIn: 600))
        try await store.insertBrowserSession(session(1, expiresIn: 60))
        try await store.insertBrowserSession(session(2, expiresIn: 3600))
        let sweeper = ExpirySweeper(store: store, now: { [now] in now.addingTimeInterval(90) })
        #expect(await sweeper.sweepOnce() == 2)
        #expect(try await store.pendingAuthorization(idHash: Data(repeating: 2, count: 32), now: now) != nil)
        #expect(try await store.browserSession(idHash: Data(repeating: 2, count: 32), now: now) != nil)
        await cleanup()
    }
}
