import Foundation
import Testing

@testable import LimenServerStorage

/// The PostgreSQL store's own connection pool, against the shared test database server.
@Suite(
    "The PostgreSQL connection pool",
    .enabled(if: PostgresTestDatabase.unavailableReason == nil),
    // Against a hang only: beside the whole suite, a PostgreSQL test waits minutes for its turn to make a database.
    .timeLimit(.minutes(10)))
struct PostgresConnectionPoolTests {
    @Test("a store dropped without being closed (its set-up failed) closes its connections, without a crash")
    func droppedStoreClosesConnections() async throws {
        let made = try await PostgresTestDatabase.make()
        await made.store.close()
        let database = try #require(URLComponents(string: made.url)?.path.dropFirst().description)
        let admin = try PostgresTestDatabase.connect(url: try #require(PostgresTestDatabase.adminURL))
        do {
            try await Self.useAndDrop(url: made.url, database: database, admin: admin)
            // A debug build of postgres-nio stops the process when a connection is freed open; a release build
            // leaves its socket open until the database drops it.
            var open = try await Self.connections(to: database, seenBy: admin)
            let deadline = Date.now.addingTimeInterval(60)
            while open > 0, Date.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                open = try await Self.connections(to: database, seenBy: admin)
            }
            #expect(open == 0)
        } catch {
            await admin.close()
            await made.cleanup()
            throw error
        }
        await admin.close()
        await made.cleanup()
    }

    /// Opens a store on `url`, keeps two of its connections idle, then lets it go without closing it.
    private static func useAndDrop(url: String, database: String, admin: PostgresStore) async throws {
        let store = try PostgresTestDatabase.connect(url: url, maximumConnections: 2)
        async let first: Void = store.ping()
        async let second: Void = store.ping()
        _ = try await (first, second)
        #expect(try await Self.connections(to: database, seenBy: admin) >= 1)
    }

    /// How many connections the database server has open to `database`.
    private static func connections(to database: String, seenBy admin: PostgresStore) async throws -> Int {
        let rows = try await admin.execute(
            "SELECT count(*)::integer AS n FROM pg_stat_activity WHERE datname = \(database)")
        return try #require(rows.first).integer("n")
    }
}
