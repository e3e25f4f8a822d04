import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Store conformance: refresh tokens")
struct RefreshTokenStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)
    private let grantLifetime: TimeInterval = 3600

    /// The user `makeWithCLIClientAndUser` stores, the subject of grant `g1`.
    private var user: UserRecord { UserRecord(id: "user-1", email: "ada@example.com", createdAt: now) }

    /// A migrated store holding grant `g1` of `subject` (expiring in an hour) and its refresh token, which it returns.
    private func make(_ kind: StoreUnderTest, subject: String = "user-1") async throws
        -> (store: any Store, token: RefreshTokenRecord, grant: GrantRecord, cleanup: @Sendable () async -> Void)
    {
        let (store, cleanup) = try await kind.makeWithCLIClientAndUser(now: now)
        let codeHash = hash("code")
        try await store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: codeHash, clientID: "limen-cli", redirectURI: "http://127.0.0.1/cb", subject: subject,
                scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60)))
        _ = try await store.redeemAuthorizationCode(hash: codeHash, clientID: "limen-cli", grantID: "g1", now: now)
        let grant = GrantRecord(
            id: "g1", clientID: "limen-cli", subject: subject, scope: "openid", authTime: now, nonce: "n",
            createdAt: now, expiresAt: now.addingTimeInterval(grantLifetime))
        #expect(try await store.insertGrant(grant, redeemedCodeHash: codeHash))
        let token = RefreshTokenRecord(
            tokenHash: hash("first"), grantID: "g1", issuedAt: now, expiresAt: now.addingTimeInterval(600))
        try await store.insertRefreshToken(token)
        return (store, token, grant, cleanup)
    }

    private func hash(_ text: String) -> Data {
        RandomIdentifier.hash(text)
    }

    /// A rotation of `token` to the successor named `successor`, the grant extended by `grantExtension` seconds.
    /// A rotation of `token` to the successor named `successor`, the grant extended by `grantExtension` seconds;
    /// with `retiring`, a second rotation that retires the unused successor of that name.
    private func rotation(
        of token: RefreshTokenRecord,
        to successor: String,
        grantExtension: TimeInterval = 7200,
        retiring: String? = nil
    ) -> RefreshTokenRotation {
        RefreshTokenRotation(
            tokenHash: token.tokenHash, rotatedAt: now.addingTimeInterval(5), sealedSuccessor: Data(successor.utf8),
            successor: RefreshTokenRecord(
                tokenHash: hash(successor), grantID: token.grantID, issuedAt: now.addingTimeInterval(5),
                expiresAt: now.addingTimeInterval(605)),
            grantExpiresAt: now.addingTimeInterval(grantExtension), retiredSuccessorHash: retiring.map(hash))
    }

    @Test(
        "a refresh token is read alone or with its grant and user; an unknown one is nil",
        arguments: StoreUnderTest.allCases)
    func lookup(_ kind: StoreUnderTest) async throws {
        let (store, token, grant, cleanup) = try await make(kind)
        #expect(try await store.refreshToken(hash: token.tokenHash) == token)
        #expect(
            try await store.refreshTokenWithGrant(hash: token.tokenHash)
                == .init(token: token, grant: grant, user: user))
        #expect(try await store.refreshToken(hash: hash("unknown")) == nil)
        #expect(try await store.refreshTokenWithGrant(hash: hash("unknown")) == nil)
        await cleanup()
    }

    @Test("a refresh token whose grant's user is gone is read without a user", arguments: StoreUnderTest.allCases)
    func lookupWithoutUser(_ kind: StoreUnderTest) async throws {
        let (store, token, grant, cleanup) = try await make(kind, subject: "nobody")
        #expect(
            try await store.refreshTokenWithGrant(hash: token.tokenHash) == .init(token: token, grant: grant, user: nil)
        )
        await cleanup()
    }

    @Test(
        "a rotation marks the token, keeps the sealed response, stores the successor and extends the grant",
        arguments: StoreUnderTest.allCases)
    func rotation(_ kind: StoreUnderTest) async throws {
        let (store, token, grant, cleanup) = try await make(kind)
        let rotation = rotation(of: token, to: "second")
        #expect(try await store.rotateRefreshToken(rotation))
        let rotated = try #require(try await store.refreshTokenWithGrant(hash: token.tokenHash))
        #expect(rotated.token.rotatedAt == rotation.rotatedAt)
        #expect(rotated.token.sealedSuccessor == rotation.sealedSuccessor)
        #expect(rotated.grant.expiresAt == rotation.grantExpiresAt)
        #expect(
            try await store.refreshTokenWithGrant(hash: hash("second"))
                == .init(
                    token: rotation.successor, grant: rotated.grant, user: user))
        #expect(grant.expiresAt < rotated.grant.expiresAt)
        await cleanup()
    }

    @Test(
        "of concurrent rotations exactly one wins, and only its successor is stored", arguments: StoreUnderTest.allCases
    )
    func concurrentRotations(_ kind: StoreUnderTest) async throws {
        let (store, token, _, cleanup) = try await make(kind)
        let rotations = (0..<10).map { rotation(of: token, to: "successor-\($0)") }
        let winners = try await withThrowingTaskGroup(of: RefreshTokenRotation?.self) { group in
            for rotation in rotations {
                group.addTask { try await store.rotateRefreshToken(rotation) ? rotation : nil }
            }
            return try await group.reduce(into: []) { winners, winner in winner.map { winners.append($0) } }
        }
        let winner = try #require(winners.first)
        #expect(winners.count == 1)
        #expect(try await store.refreshToken(hash: token.tokenHash)?.sealedSuccessor == winner.sealedSuccessor)
        for rotation in rotations {
            let stored = try await store.refreshToken(hash: rotation.successor.tokenHash)
            #expect(stored == (rotation == winner ? rotation.successor : nil))
        }
        await cleanup()
    }

    @Test("a rotation of a rotated token stores nothing and leaves the grant", arguments: StoreUnderTest.allCases)
    func rotatedTokenStaysRotated(_ kind: StoreUnderTest) async throws {
        let (store, token, _, cleanup) = try await make(kind)
        let first = rotation(of: token, to: "second")
        #expect(try await store.rotateRefreshToken(first))
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "third", grantExtension: 9000)) == false)
        #expect(try await store.refreshToken(hash: hash("third")) == nil)
        #expect(try await store.refreshToken(hash: token.tokenHash)?.sealedSuccessor == first.sealedSuccessor)
        #expect(try await store.grant(id: "g1")?.expiresAt == first.grantExpiresAt)
        await cleanup()
    }

    @Test("a rotation never shortens its grant", arguments: StoreUnderTest.allCases)
    func grantNeverShortened(_ kind: StoreUnderTest) async throws {
        let (store, token, grant, cleanup) = try await make(kind)
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "second", grantExtension: 60)))
        #expect(try await store.grant(id: "g1")?.expiresAt == grant.expiresAt)
        await cleanup()
    }

    @Test(
        "a second rotation retires the unused successor, links the new one and keeps the new sealed response",
        arguments: StoreUnderTest.allCases)
    func secondRotationRetiresUnusedSuccessor(_ kind: StoreUnderTest) async throws {
        let (store, token, _, cleanup) = try await make(kind)
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "second")))
        #expect(try await store.refreshToken(hash: token.tokenHash)?.successorHash == hash("second"))
        let again = rotation(of: token, to: "third", retiring: "second")
        #expect(try await store.rotateRefreshToken(again))
        let rotated = try await store.refreshToken(hash: token.tokenHash)
        #expect(rotated?.successorHash == hash("third"))
        #expect(rotated?.sealedSuccessor == again.sealedSuccessor)
        #expect(try await store.refreshToken(hash: hash("second"))?.retiredAt == again.rotatedAt)
        #expect(try await store.refreshToken(hash: hash("third")) == again.successor)
        #expect(try await store.grant(id: "g1")?.revokedAt == nil)
        await cleanup()
    }

    @Test(
        "a second rotation is refused and stores nothing once the successor was used, or when it is not the successor",
        arguments: StoreUnderTest.allCases)
    func secondRotationNeedsAnUnusedSuccessor(_ kind: StoreUnderTest) async throws {
        let (store, token, _, cleanup) = try await make(kind)
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "second")))
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "other", retiring: "unknown")) == false)
        let second = try #require(try await store.refreshToken(hash: hash("second")))
        #expect(try await store.rotateRefreshToken(rotation(of: second, to: "third")))
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "fourth", retiring: "second")) == false)
        #expect(try await store.refreshToken(hash: hash("fourth")) == nil)
        #expect(try await store.refreshToken(hash: hash("other")) == nil)
        #expect(try await store.refreshToken(hash: token.tokenHash)?.successorHash == hash("second"))
        #expect(try await store.refreshToken(hash: hash("second"))?.retiredAt == nil)
        await cleanup()
    }

    @Test(
        "a retired successor can no longer be rotated; of a second rotation and the successor's use at most one wins",
        arguments: StoreUnderTest.allCases)
    func retiredSuccessorStaysRetired(_ kind: StoreUnderTest) async throws {
        let (store, token, _, cleanup) = try await make(kind)
        #expect(try await store.rotateRefreshToken(rotation(of: token, to: "second")))
        let second = try #require(try await store.refreshToken(hash: hash("second")))
        async let again = store.rotateRefreshToken(rotation(of: token, to: "third", retiring: "second"))
        async let used = store.rotateRefreshToken(rotation(of: second, to: "fourth"))
        let outcomes = try await (again, used)
        #expect(!(outcomes.0 && outcomes.1))
        if outcomes.0 {
            #expect(try await store.rotateRefreshToken(rotation(of: second, to: "fifth")) == false)
            #expect(try await store.refreshToken(hash: hash("fifth")) == nil)
        }
        await cleanup()
    }

    @Test(
        "a grant bound to a browser session is read with its end, moves to the session replacing it, goes with the last",
        arguments: StoreUnderTest.allCases)
    func sessionBoundGrant(_ kind: StoreUnderTest) async throws {
        let (store, _, _, cleanup) = try await make(kind)
        let session = BrowserSessionRecord(
            idHash: hash("session"), subject: "user-1", authTime: now, expiresAt: now.addingTimeInterval(3600))
        try await store.insertBrowserSession(session)
        func grant(_ id: String) async throws -> Bool {
            let codeHash = hash("code-\(id)")
            try await store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeHash: codeHash, clientID: "limen-cli", redirectURI: "http://127.0.0.1/cb", subject: "user-1",
                    scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60),
                    browserSessionHash: session.idHash))
            _ = try await store.redeemAuthorizationCode(hash: codeHash, clientID: "limen-cli", grantID: id, now: now)
            let record = GrantRecord(
                id: id, clientID: "limen-cli", subject: "user-1", scope: "openid", authTime: now, createdAt: now,
                expiresAt: now.addingTimeInterval(grantLifetime), browserSessionHash: session.idHash)
            return try await store.insertGrant(record, redeemedCodeHash: codeHash)
        }
        #expect(try await grant("bound"))
        let token = RefreshTokenRecord(
            tokenHash: hash("bound-token"), grantID: "bound", issuedAt: now, expiresAt: now.addingTimeInterval(600))
        try await store.insertRefreshToken(token)
        let found = try await store.refreshTokenWithGrant(hash: token.tokenHash)
        #expect(found?.grant.browserSessionHash == session.idHash)
        #expect(found?.sessionExpiresAt == session.expiresAt)

        // The user signs in again in this browser: a new session replaces the old one and takes its grants.
        let renewed = BrowserSessionRecord(
            idHash: hash("renewed"), subject: "user-1", authTime: now, expiresAt: now.addingTimeInterval(3600))
        try await store.insertBrowserSession(renewed)
        try await store.moveSessionGrants(subject: "someone-else", from: session.idHash, to: renewed.idHash)
        #expect(try await store.grant(id: "bound")?.browserSessionHash == session.idHash, "only the user's grants")
        try await store.moveSessionGrants(subject: "user-1", from: session.idHash, to: renewed.idHash)
        #expect(try await store.deleteBrowserSession(idHash: session.idHash))
        #expect(try await store.grant(id: "bound")?.browserSessionHash == renewed.idHash)

        #expect(try await store.deleteBrowserSession(idHash: renewed.idHash))
        #expect(try await store.grant(id: "bound") == nil)
        #expect(try await store.refreshToken(hash: token.tokenHash) == nil)
        #expect(try await store.grant(id: "g1") != nil, "a grant without a session stays")
        #expect(try await grant("late") == false)
        await cleanup()
    }
}
