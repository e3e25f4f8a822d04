import Foundation
import LimenTestSupport
import PostgresNIO

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

/// A throw-away PostgreSQL database per test, made through the admin URL in `LIMEN_TEST_POSTGRES_URL`
/// (`Tests/Peers/postgres/start.sh` prints it; `.ci/run` sets it).
enum PostgresTestDatabase {
    /// The admin URL, when PostgreSQL is configured for the tests.
    static var adminURL: String? { ProcessInfo.processInfo.environment["LIMEN_TEST_POSTGRES_URL"] }

    /// Why PostgreSQL tests cannot run, or `nil` when they can. With `LIMEN_REQUIRE_PEERS=1` (CI) they always run,
    /// so a missing database fails instead of being skipped.
    static var unavailableReason: String? {
        if adminURL != nil || Peers.areRequired { return nil }
        return "LIMEN_TEST_POSTGRES_URL is not set (export it from Tests/Peers/postgres/start.sh)"
    }

    /// The connections each test's stores open at most. Tests run all at once, each with its own database: with
    /// postgres-nio's default of 20 a machine with many cores would exceed PostgreSQL's `max_connections`.
    static let poolSize = 4

    /// A new database migrated up to `version` (every migration by default), its URL, and what drops it; made through
    /// `adminURL` (a role that may create databases), the shared test server's unless told otherwise.
    static func make(
        through adminURL: String? = adminURL,
        migratedTo version: Int = .max
    ) async throws -> (store: PostgresStore, url: String, cleanup: @Sendable () async -> Void) {
        guard let adminURL else { throw StorageError.openFailed("LIMEN_TEST_POSTGRES_URL is not set") }
        guard var components = URLComponents(string: adminURL), components.host != nil else {
            throw StorageError.openFailed("the admin URL is not a URL (\(adminURL.count) characters)")
        }
        let name = "limen_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let admin = try connect(url: adminURL, maximumConnections: 1)
        do {
            try await admin.rows(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        } catch {
            await admin.close()
            throw error
        }
        components.path = "/" + name
        let url = components.string ?? adminURL
        let store = try connect(url: url, maximumConnections: poolSize)
        let cleanup: @Sendable () async -> Void = {
            await store.close()
            _ = try? await admin.rows(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            await admin.close()
        }
        do {
            try await store.migrate(SchemaMigrations.all(in: .postgres).filter { $0.version <= version })
        } catch {
            await cleanup()
            throw error
        }
        return (store, url, cleanup)
    }
}

extension PostgresTestDatabase {
    /// A store on the database at `url`, with the tests' pool size unless told otherwise.
    static func connect(url: String, maximumConnections: Int = poolSize) throws -> PostgresStore {
        try PostgresStore.connect(url: url, maximumConnections: maximumConnections)
    }
}

extension ServerConfiguration {
    /// Keeps the data in the test database at `url`, with a test-sized connection pool.
    mutating func usePostgres(url: String) {
        databaseURL = url
        databasePoolSize = PostgresTestDatabase.poolSize
    }
}
