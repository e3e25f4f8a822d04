import Foundation
import Logging
import NIOCore
import SQLiteNIO
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("SQLite read connection: hot reads on the caller's thread, never waiting for a lock")
struct SQLiteReadConnectionTests {
    /// A file in `journalMode` (WAL, as the store keeps it, unless told otherwise) with one table, the connection that wrote it, and the read connection under test.
    private struct Database {
        let directory: TemporaryDirectory
        let writer: SQLiteConnection
        let reader: SQLiteReadConnection

        var path: String { directory.path + "/read.sqlite" }

        static func make(journalMode: String) async throws -> Database {
            let directory = try TemporaryDirectory()
            let path = directory.path + "/read.sqlite"
            let writer = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await writer.query("PRAGMA journal_mode = \(journalMode)")
            _ = try await writer.query("CREATE TABLE items (id TEXT PRIMARY KEY, count INTEGER, body BLOB)")
            return Database(directory: directory, writer: writer, reader: try SQLiteReadConnection.open(path: path))
        }

        /// Runs `body` on a new database, and closes it whether `body` returns or throws.
        static func with(journalMode: String = "WAL", _ body: (Database) async throws -> Void) async throws {
            let database = try await make(journalMode: journalMode)
            do {
                try await body(database)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }

        private func close() async {
            reader.close()
            try? await writer.close()
            directory.remove()
        }
    }

    @Test("reads each type of value, and sees every write committed before the read")
    func readsCommittedValues() async throws {
        try await Database.with { database in
            let sql = "SELECT id, count, body, 2.5 AS ratio, NULL AS empty FROM items WHERE id = ?"
            #expect(try database.reader.rows(sql, [.text("é1")])?.isEmpty == true)

            _ = try await database.writer.query(
                "INSERT INTO items VALUES (?, ?, ?)",
                [.text("é1"), .integer(7), .blob(ByteBuffer(bytes: [0, 1, 255]))])
            let row = try #require(try database.reader.rows(sql, [.text("é1")])?.first)
            #expect(row.column("id")?.string == "é1")
            #expect(row.column("count")?.integer == 7)
            #expect(row.column("body")?.blob == ByteBuffer(bytes: [0, 1, 255]))
            #expect(row.column("ratio")?.double == 2.5)
            #expect(row.column("empty") == .null)
            #expect(row.column("absent") == nil)
        }
    }

    @Test("a statement run again takes its new binds, not the last run's")
    func rebinds() async throws {
        try await Database.with { database in
            _ = try await database.writer.query("INSERT INTO items VALUES ('a', 1, NULL), ('b', 2, NULL)")
            let sql = "SELECT count FROM items WHERE id = ?"
            #expect(try database.reader.rows(sql, [.text("a")])?.first?.column("count")?.integer == 1)
            #expect(try database.reader.rows(sql, [.text("b")])?.first?.column("count")?.integer == 2)
            #expect(try database.reader.rows(sql, [.text("c")])?.isEmpty == true)
        }
    }

    @Test("it answers nil at once while another connection holds the file, and reads again once it is released")
    func lockedFileAnswersNil() async throws {
        // In WAL mode readers never wait for a writer; in rollback mode a writer's EXCLUSIVE lock shuts them out.
        try await Database.with(journalMode: "DELETE") { database in
            _ = try await database.writer.query("INSERT INTO items VALUES ('a', 1, NULL)")
            _ = try await database.writer.query("BEGIN EXCLUSIVE")
            _ = try await database.writer.query("UPDATE items SET count = 2")

            #expect(try database.reader.rows("SELECT count FROM items", []) == nil)

            _ = try await database.writer.query("COMMIT")
            #expect(try database.reader.rows("SELECT count FROM items", [])?.first?.column("count")?.integer == 2)
        }
    }

    @Test("SQL it cannot prepare is a typed error; a closed connection answers nil")
    func refusals() async throws {
        try await Database.with { database in
            #expect(throws: StorageError.self) { try database.reader.rows("SELECT nope FROM nowhere", []) }
            database.reader.close()
            let afterClose = try database.reader.rows("SELECT 1", [])
            #expect(afterClose == nil)
        }
    }

    @Test("a store read the read connections cannot answer goes to the writing connection")
    func storeFallsBackToThePool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.sqlite"
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let seeded = try await SQLiteStore.open(path: path)
        try await seeded.migrate()
        try await seeded.insertClientIfAbsent(SeedClients.cli(now: now))
        try await seeded.insertUserIfAbsent(UserRecord(id: "user-1", email: "ada@example.com", createdAt: now))
        let grant = try await seeded.insertRedeemedGrant(id: "g1", now: now)
        await seeded.close()

        // Its one read connection closed, then its one read connection lent out: the read goes to the writing
        // connection.
        let closed = try SQLiteReadConnection.open(path: path)
        closed.close()
        let lent = try SQLiteReadConnections.open(path: path, count: 1)
        let held = try #require(lent.borrow())
        for readers in [SQLiteReadConnections([closed]), lent] {
            let store = SQLiteStore(
                connection: try await SQLiteWriteConnection.open(path: path), readers: readers,
                logger: Logger(label: "test"))
            #expect(try await store.accessTokenState(grantID: "g1", jti: "j1")?.grant == grant)
            await store.close()
        }
        lent.giveBack(held)
    }

    @Test("a read never waits for another's connection: it takes an idle one, or answers nil for the writer")
    func readsNeverWait() async throws {
        try await Database.with { database in
            _ = try await database.writer.query("INSERT INTO items VALUES ('a', 1, NULL)")
            let sql = "SELECT count FROM items WHERE id = ?"
            let readers = try SQLiteReadConnections.open(path: database.path, count: 2)
            defer { readers.close() }
            let first = try #require(readers.borrow())
            #expect(try readers.rows(sql, [.text("a")])?.first?.column("count")?.integer == 1, "the other is idle")
            let second = try #require(readers.borrow())
            #expect(readers.borrow() == nil)
            #expect(
                try readers.rows(sql, [.text("a")]) == nil, "every connection is lent out: the writing connection reads"
            )
            readers.giveBack(first)
            #expect(try readers.rows(sql, [.text("a")])?.first?.column("count")?.integer == 1)
            readers.giveBack(second)
        }
    }

    @Test("closing closes the idle connections at once and a lent one when it comes back")
    func closingWhileLent() async throws {
        try await Database.with { database in
            let readers = try SQLiteReadConnections.open(path: database.path, count: 2)
            let lent = try #require(readers.borrow())
            readers.close()
            #expect(try readers.rows("SELECT 1", []) == nil)
            #expect(try lent.rows("SELECT 1", []) != nil, "still open while lent")
            readers.giveBack(lent)
            #expect(try lent.rows("SELECT 1", []) == nil, "closed once back")
            #expect(readers.borrow() == nil)
        }
    }
}
