import Foundation
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Access token state: the grant and the token's revocation in one read")
struct AccessTokenStateStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A store holding the CLI client, one user and the grant `g1` made by redeeming a code.
    private func storeWithGrant(_ kind: StoreUnderTest) async throws -> (
        store: any Store, grant: GrantRecord, cleanup: @Sendable () async -> Void
    ) {
        let (store, cleanup) = try await kind.makeWithCLIClientAndUser(now: now)
        let grant = try await store.insertRedeemedGrant(id: "g1", now: now)
        return (store, grant, cleanup)
    }

    @Test("an unrevoked token of a stored grant reads as the grant, not revoked", arguments: StoreUnderTest.allCases)
    func activeToken(_ kind: StoreUnderTest) async throws {
        let (store, grant, cleanup) = try await storeWithGrant(kind)
        let state = try await store.accessTokenState(grantID: "g1", jti: "j1")
        #expect(state == AccessTokenState(grant: grant, isTokenRevoked: false))
        await cleanup()
    }

    @Test(
        "a revoked token reads as revoked; another token of the same grant does not", arguments: StoreUnderTest.allCases
    )
    func revokedToken(_ kind: StoreUnderTest) async throws {
        let (store, _, cleanup) = try await storeWithGrant(kind)
        try await store.revokeAccessToken(jti: "j1", expiresAt: now.addingTimeInterval(600))
        #expect(try await store.accessTokenState(grantID: "g1", jti: "j1")?.isTokenRevoked == true)
        #expect(try await store.accessTokenState(grantID: "g1", jti: "j2")?.isTokenRevoked == false)
        await cleanup()
    }

    @Test("a revoked grant reads with its revocation time", arguments: StoreUnderTest.allCases)
    func revokedGrant(_ kind: StoreUnderTest) async throws {
        let (store, _, cleanup) = try await storeWithGrant(kind)
        #expect(try await store.revokeGrant(id: "g1", at: now.addingTimeInterval(5)))
        let state = try #require(try await store.accessTokenState(grantID: "g1", jti: "j1"))
        #expect(state.grant.revokedAt == now.addingTimeInterval(5))
        #expect(state.grant.isActive(at: now.addingTimeInterval(5)) == false)
        await cleanup()
    }

    @Test("an unknown grant reads as nothing, even for a revoked token", arguments: StoreUnderTest.allCases)
    func unknownGrant(_ kind: StoreUnderTest) async throws {
        let (store, _, cleanup) = try await storeWithGrant(kind)
        try await store.revokeAccessToken(jti: "j1", expiresAt: now.addingTimeInterval(600))
        #expect(try await store.accessTokenState(grantID: "nobody", jti: "j1") == nil)
        #expect(try await store.accessTokenState(grantID: "nobody", jti: "j9") == nil)
        await cleanup()
    }
}

extension GrantStore {
    /// Stores grant `id` of `user-1` to the CLI client (both already stored) as redeeming a code does, and returns it.
    func insertRedeemedGrant(id: String, now: Date) async throws -> GrantRecord {
        let codeHash = Data(repeating: 7, count: 32)
        try await insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: codeHash, clientID: "limen-cli", redirectURI: "http://127.0.0.1:5000/callback",
                subject: "user-1", scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60)))
        _ = try await redeemAuthorizationCode(hash: codeHash, clientID: "limen-cli", grantID: id, now: now)
        let grant = GrantRecord(
            id: id, clientID: "limen-cli", subject: "user-1", scope: "openid", authTime: now, nonce: "n",
            createdAt: now, expiresAt: now.addingTimeInterval(3600))
        #expect(try await insertGrant(grant, redeemedCodeHash: codeHash))
        return grant
    }
}
