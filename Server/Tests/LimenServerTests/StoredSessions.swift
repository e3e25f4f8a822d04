import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Signed-in sessions made straight in the store, for tests that then drive `limen-server` with their refresh tokens.
enum StoredSessions {
    /// Bootstraps the data folder in process (master key, signing keys, database), registers the native app `clientID`
    /// and signs in `count` times; the refresh tokens of those sessions.
    static func signIn(count: Int, clientID: String, in directory: TemporaryDirectory, databaseURL: String?)
        async throws -> [String]
    {
        var configuration = ServerConfiguration.testing(directory: directory)
        if let databaseURL { configuration.usePostgres(url: databaseURL) }
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: Date.init)
        let store = provider.store
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var tokens: [String] = []
        do {
            try await store.insertUserIfAbsent(UserRecord(id: "user-1", email: "ada@example.com", createdAt: now))
            try await store.insertClientIfAbsent(
                ClientRecord(
                    id: clientID, name: "App", kind: .public, isNative: true, redirectURIs: ["http://127.0.0.1/cb"],
                    createdAt: now))
            for _ in 0..<count {
                tokens.append(try await signIn(store: store, clientID: clientID, now: now))
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        return tokens
    }

    /// Stores a grant as a redeemed code makes it, with one refresh token; that token.
    private static func signIn(store: any Store, clientID: String, now: Date) async throws -> String {
        let codeHash = RandomIdentifier.hash(RandomIdentifier.make())
        let grantID = RandomIdentifier.make()
        try await store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: codeHash, clientID: clientID, redirectURI: "http://127.0.0.1/cb", subject: "user-1",
                scope: "openid offline_access", authTime: now, expiresAt: now.addingTimeInterval(60)))
        _ = try await store.redeemAuthorizationCode(hash: codeHash, clientID: clientID, grantID: grantID, now: now)
        let grant = GrantRecord(
            id: grantID, clientID: clientID, subject: "user-1", scope: "openid offline_access", authTime: now,
            createdAt: now, expiresAt: now.addingTimeInterval(86_400))
        #expect(try await store.insertGrant(grant, redeemedCodeHash: codeHash))
        let token = RandomIdentifier.make()
        try await store.insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: RandomIdentifier.hash(token), grantID: grantID, issuedAt: now,
                expiresAt: now.addingTimeInterval(86_400)))
        return token
    }

    /// A refresh of `token` for `clientID` at the server on 127.0.0.1:`port`.
    static func refresh(_ token: String, clientID: String, port: Int) async throws -> Page {
        try await liveForm(
            port: port, "/token",
            [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID)])
    }
}
