import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The kill -9 measurement of issue 8 §2 as a test: refresh tokens whose rotation committed while the server was
/// killed before answering are retried, past the grace window, against the restarted server.
@Suite("A lost answer never signs a user out: kill -9 between a rotation and its answer")
struct RefreshAfterCrashTests {
    private static let clientID = "crash-app"
    private static let sessions = 24

    @Test(
        "24 sessions refreshing when the server is killed all recover after a restart on the same data",
        arguments: TokenBackend.allCases)
    func killedServerLosesNoSession(_ backend: TokenBackend) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var database: (url: String, cleanup: @Sendable () async -> Void)?
        if backend == .postgres {
            let made = try await PostgresTestDatabase.make()
            await made.store.close()
            database = (made.url, made.cleanup)
        }
        do {
            try await Self.killAndRetry(in: directory, databaseURL: database?.url)
        } catch {
            await database?.cleanup()
            throw error
        }
        await database?.cleanup()
    }

    /// Signs in, refreshes every session while the server is killed, restarts it and retries every old token.
    private static func killAndRetry(in directory: TemporaryDirectory, databaseURL: String?) async throws {
        let refreshTokens = try await signedInSessions(in: directory, databaseURL: databaseURL)
        let port = try FreePort.find()

        let killedAt = try await withServer(port: port, directory: directory, databaseURL: databaseURL) { first in
            // Every session refreshes at once; the server is killed as soon as one rotation has been answered, so at
            // least that one committed and its answer is thrown away, as if it had been lost on the way.
            try await withThrowingTaskGroup(of: Bool.self, returning: Date.self) { group in
                for token in refreshTokens {
                    group.addTask { (try? await refresh(token, port: port))?.status == .ok }
                }
                var answered = false
                for try await ok in group where ok {
                    answered = true
                    break
                }
                await first.kill()
                #expect(answered, "no refresh was answered before the kill")
                return Date()
            }
        }

        // The grace window is 0 s and stored times are whole seconds: once the second of the kill is over, every
        // retry is past the grace window of every rotation the killed server committed.
        try await waitForTheSecondToPass(after: killedAt)
        let stopped = try await withServer(port: port, directory: directory, databaseURL: databaseURL) { second in
            for token in refreshTokens {
                let retry = try await refresh(token, port: port)
                #expect(retry.status == .ok, "a session was lost: \(retry.json)")
                let successor = try #require(retry.json["refresh_token"]?.stringValue)
                #expect(try await refresh(successor, port: port).status == .ok)
            }
            return await second.stop()
        }
        #expect(stopped.status == 0)
    }

    /// Bootstraps the data folder in process (master key, signing keys, database), registers the app and signs in
    /// ``sessions`` times; the refresh tokens of those sessions.
    private static func signedInSessions(in directory: TemporaryDirectory, databaseURL: String?) async throws
        -> [String]
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
            for _ in 0..<sessions {
                tokens.append(try await signIn(store: store, now: now))
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        return tokens
    }

    /// Stores a grant as a redeemed code makes it, with one refresh token; that token.
    private static func signIn(store: any Store, now: Date) async throws -> String {
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

    /// `limen-server serve` on `port` over the data in `directory` (and the PostgreSQL database at `databaseURL`),
    /// with no reuse grace window.
    /// Runs `body` with the binary serving `directory` (and the database at `databaseURL`, if any) on `port`.
    private static func withServer<Result>(
        port: Int,
        directory: TemporaryDirectory,
        databaseURL: String?,
        _ body: (RunningProcess) async throws -> Result
    ) async throws -> Result {
        try await withServerProcess(
            [
                "--host", "127.0.0.1", "--port", String(port), "--data-dir", directory.path, "--refresh-reuse-grace",
                "0s",
            ],
            environment: databaseURL.map {
                ["LIMEN_DATABASE_URL": $0, "LIMEN_DATABASE_POOL_SIZE": String(PostgresTestDatabase.poolSize)]
            } ?? [:],
            body)
    }

    private static func refresh(_ token: String, port: Int) async throws -> Page {
        try await liveForm(
            port: port, "/token",
            [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID)])
    }
}
