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
        let refreshTokens = try await StoredSessions.signIn(
            count: sessions, clientID: clientID, in: directory, databaseURL: databaseURL)
        let port = try FreePort.find()

        let killedAt = try await withServer(port: port, directory: directory, databaseURL: databaseURL) { first in
            // Every session refreshes at once; the server is killed as soon as one rotation has been answered, so at
            // least that one committed and its answer is thrown away, as if it had been lost on the way.
            try await withThrowingTaskGroup(of: Bool.self, returning: Date.self) { group in
                for token in refreshTokens {
                    group.addTask {
                        (try? await StoredSessions.refresh(token, clientID: clientID, port: port))?.status == .ok
                    }
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
                let retry = try await StoredSessions.refresh(token, clientID: clientID, port: port)
                #expect(retry.status == .ok, "a session was lost: \(retry.json)")
                let successor = try #require(retry.json["refresh_token"]?.stringValue)
                #expect(try await StoredSessions.refresh(successor, clientID: clientID, port: port).status == .ok)
            }
            return await second.stop()
        }
        #expect(stopped.status == 0)
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
}
