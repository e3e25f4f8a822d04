import Foundation
import NIOConcurrencyHelpers
import SQLiteNIO
import Testing

@testable import LimenServerStorage

@Suite("SQLite group commit: concurrent statements share a transaction, and a failure fails only its own")
struct SQLiteGroupCommitTests {
    /// A database file with the tables the cases write, its group commit held by a gate until ``open()``, and a
    /// second connection that sees only what was committed.
    private struct Database {
        let directory: TemporaryDirectory
        let connection: SQLiteWriteConnection
        let observer: SQLiteConnection
        /// 0 while the first batch is held, 1 once the gate is open.
        let gate = ConditionLock(value: 0)
        let commit: SQLiteGroupCommit

        init() async throws {
            directory = try TemporaryDirectory()
            let path = directory.path + "/group.sqlite"
            connection = try await SQLiteWriteConnection.open(path: path)
            let setup = SQLiteGroupCommit(connection: connection)
            _ = try await setup.query("PRAGMA journal_mode = WAL", [])
            _ = try await setup.query("PRAGMA foreign_keys = ON", [])
            _ = try await setup.query("CREATE TABLE items (id INTEGER PRIMARY KEY)", [])
            _ = try await setup.query(
                "CREATE TABLE notes (item INTEGER REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED)", [])
            observer = try await SQLiteConnection.open(storage: .file(path: path))
            commit = SQLiteGroupCommit(connection: connection) { [gate] in
                gate.lock(whenValue: 1)
                gate.unlock()
            }
        }

        /// Lets the batches run.
        func open() {
            gate.lock()
            gate.unlock(withValue: 1)
        }

        /// Starts `sql` through the group commit, and returns once it waits in the queue behind the gate.
        func enqueue(_ sql: String) async -> Task<[SQLiteResultRow], any Error> {
            let queued = commit.queuedCount
            let task = Task { [commit] in try await commit.query(sql, []) }
            while commit.queuedCount == queued { await Task.yield() }
            return task
        }

        /// The ids in `items`, as a connection other than the writer's sees them.
        func committedItems() async throws -> [Int] {
            try await observer.query("SELECT id FROM items ORDER BY id").compactMap { $0.column("id")?.integer }
        }

        func close() async throws {
            try await observer.close()
            await connection.close()
            directory.remove()
        }
    }

    @Test("statements queued together commit in one transaction, and each caller gets its rows once it is durable")
    func queuedStatementsShareOneCommit() async throws {
        let database = try await Database()
        // The first statement starts the batch that the gate holds; the rest queue behind it.
        var tasks: [Task<[SQLiteResultRow], any Error>] = []
        for id in 0...9 { tasks.append(await database.enqueue("INSERT INTO items (id) VALUES (\(id)) RETURNING id")) }
        #expect(try await database.committedItems() == [])
        database.open()
        for (id, task) in tasks.enumerated() {
            #expect(try await task.value.first?.column("id")?.integer == id)
        }
        #expect(try await database.committedItems() == Array(0...9))
        #expect(database.commit.committedGroups == 1)
        try await database.close()
    }

    @Test("a failing statement fails only its caller: the others of its batch commit")
    func aFailedStatementFailsOnlyItsCaller() async throws {
        let database = try await Database()
        _ = try await SQLiteGroupCommit(connection: database.connection).query("INSERT INTO items (id) VALUES (2)", [])
        let held = await database.enqueue("SELECT 1")
        let before = await database.enqueue("INSERT INTO items (id) VALUES (1)")
        let duplicate = await database.enqueue("INSERT INTO items (id) VALUES (2)")
        let after = await database.enqueue("INSERT INTO items (id) VALUES (3)")
        database.open()
        _ = try await held.value
        _ = try await before.value
        await #expect(throws: StorageError.self) { try await duplicate.value }
        _ = try await after.value
        #expect(try await database.committedItems() == [1, 2, 3])
        try await database.close()
    }

    @Test("a commit that fails fails every statement of its batch, and none of them takes effect")
    func aFailedCommitFailsTheWholeBatch() async throws {
        let database = try await Database()
        let held = await database.enqueue("SELECT 1")
        let item = await database.enqueue("INSERT INTO items (id) VALUES (7)")
        // Checked only at COMMIT: a note about an item that does not exist.
        let orphan = await database.enqueue("INSERT INTO notes (item) VALUES (99)")
        database.open()
        await #expect(throws: StorageError.self) { try await held.value }
        await #expect(throws: StorageError.self) { try await item.value }
        await #expect(throws: StorageError.self) { try await orphan.value }
        #expect(try await database.committedItems() == [])
        // The connection is usable again, outside any transaction.
        _ = try await database.commit.query("INSERT INTO items (id) VALUES (8)", [])
        #expect(try await database.committedItems() == [8])
        try await database.close()
    }
}
