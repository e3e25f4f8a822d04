import Foundation
import Logging
import SQLiteNIO
import Testing

@testable import LimenServerStorage

@Suite(
    "SQLite checkpoints off the commit path: the writer never checkpoints, the checkpointer does, and the WAL stays bounded"
)
struct SQLiteCheckpointerTests {
    /// A 4,000-byte row is about one 4 KiB page, so a thousand rows are a thousand WAL frames.
    private static let rowBytes = 4_000

    /// Runs `body` on a store in a new folder, its checkpointer not started (emptying the WAL past `walLimit` bytes),
    /// and closes the store and removes the folder whether `body` returns or throws.
    private static func withStore(
        walLimit: Int = SQLiteCheckpointer.defaultWALLimit,
        _ body: (SQLiteStore, TemporaryDirectory) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await SQLiteStore.open(
            path: directory.path + "/limen.sqlite", logger: Logger(label: "test.checkpoint"), walLimit: walLimit)
        do {
            _ = try await store.query("CREATE TABLE bulk (body BLOB NOT NULL)")
            try await body(store, directory)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// The WAL limit of ``withSmallWAL(_:)``: 1 MiB.
    private static let smallWAL = 1 << 20

    /// Runs `body` on a store whose WAL is emptied past ``smallWAL`` bytes, with its folder and its checkpointer.
    private static func withSmallWAL(
        _ body: (SQLiteStore, TemporaryDirectory, SQLiteCheckpointer) async throws -> Void
    ) async throws {
        try await withStore(walLimit: smallWAL) { store, directory in
            try await body(store, directory, try checkpointer(of: store))
        }
    }

    /// Adds `count` rows of ``rowBytes`` random bytes in one statement (one commit).
    private static func write(_ count: Int, to store: SQLiteStore) async throws {
        _ = try await store.query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                + "INSERT INTO bulk SELECT randomblob(\(rowBytes)) FROM n",
            [.integer(count)])
    }

    private static func rows(in store: SQLiteStore) async throws -> Int? {
        try await store.query("SELECT COUNT(*) AS n FROM bulk").first?.column("n")?.integer
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func checkpointer(of store: SQLiteStore) throws -> SQLiteCheckpointer {
        try #require(store.checkpointer)
    }

    @Test("commits past a thousand pages leave them in the WAL; a checkpoint moves them into the database file")
    func checkpointMovesPages() async throws {
        try await Self.withStore { store, directory in
            let database = directory.path + "/limen.sqlite"
            let checkpointer = try Self.checkpointer(of: store)
            _ = try await checkpointer.checkpoint()
            let before = Self.size(database)

            try await Self.write(1_500, to: store)
            // SQLite's automatic checkpoint would have run in that commit (1,000 pages): the file has not grown.
            #expect(Self.size(database) == before)

            let outcome = try await checkpointer.checkpoint()
            #expect(outcome.frames >= 1_500)
            #expect(outcome.checkpointed == outcome.frames)
            #expect(Self.size(database) >= before + 1_500 * Self.rowBytes)
            #expect(try await Self.rows(in: store) == 1_500)
        }
    }

    @Test("the timer runs a checkpoint on each tick of its clock, and close stops it")
    func timerAndClose() async throws {
        let clock = SteppedClock()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.path + "/limen.sqlite"
        let store = try await SQLiteStore.open(
            path: database, logger: Logger(label: "test.checkpoint"), walLimit: SQLiteCheckpointer.defaultWALLimit)
        let checkpointer: SQLiteCheckpointer
        do {
            checkpointer = try Self.checkpointer(of: store)
            _ = try await store.query("CREATE TABLE bulk (body BLOB NOT NULL)")
            checkpointer.start(on: clock)
            await clock.nextSleep()
            let before = Self.size(database)
            try await Self.write(200, to: store)
            #expect(Self.size(database) == before)

            clock.step()
            await clock.nextSleep()  // the checkpoint of that tick is done
            #expect(Self.size(database) >= before + 200 * Self.rowBytes)
        } catch {
            await store.close()
            throw error
        }
        await store.close()  // returns only once the timer's loop has ended
        await #expect(throws: StorageError.self) { try await checkpointer.checkpoint() }
    }

    @Test("past its limit the WAL file is emptied, so it stays bounded however much is written")
    func walStaysBounded() async throws {
        try await Self.withSmallWAL { store, directory, checkpointer in
            let wal = directory.path + "/limen.sqlite-wal"
            for _ in 0..<10 {
                try await Self.write(400, to: store)
                #expect(Self.size(wal) > Self.smallWAL)
                let outcome = try await checkpointer.checkpoint()
                #expect(outcome.truncated)
                #expect(Self.size(wal) == 0)
            }
            #expect(try await Self.rows(in: store) == 4_000)
        }
    }

    @Test("a reader holding an older snapshot keeps the WAL from being emptied until it ends, and waits for nothing")
    func readerHoldsTheWAL() async throws {
        try await Self.withSmallWAL { store, directory, checkpointer in
            let wal = directory.path + "/limen.sqlite-wal"
            try await Self.write(10, to: store)
            let reader = try await SQLiteConnection.open(storage: .file(path: directory.path + "/limen.sqlite"))
            do {
                _ = try await reader.query("BEGIN")
                _ = try await reader.query("SELECT COUNT(*) FROM bulk")
                try await Self.write(400, to: store)

                let held = try await checkpointer.checkpoint()
                #expect(!held.truncated)
                #expect(held.checkpointed < held.frames)  // the reader's snapshot still needs the frames after it
                #expect(Self.size(wal) > Self.smallWAL)

                _ = try await reader.query("COMMIT")
                let freed = try await checkpointer.checkpoint()
                #expect(freed.truncated)
                #expect(Self.size(wal) == 0)
            } catch {
                try? await reader.close()
                throw error
            }
            try await reader.close()
        }
    }

    @Test("what was committed before and after a checkpoint is all there when the files are opened after a crash")
    func crashSafety() async throws {
        let copy = try TemporaryDirectory()
        defer { copy.remove() }
        try await Self.withStore { store, directory in
            try await Self.write(300, to: store)
            _ = try await Self.checkpointer(of: store).checkpoint()
            try await Self.write(200, to: store)  // in the WAL only
            // The files as a power cut leaves them: the database file and its WAL, with no clean close.
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(
                    atPath: directory.path + "/limen.sqlite" + suffix, toPath: copy.path + "/limen.sqlite" + suffix)
            }
        }
        let reopened = try await SQLiteStore.open(path: copy.path + "/limen.sqlite")
        let count = try? await Self.rows(in: reopened)
        await reopened.close()
        #expect(count == 500)
    }
}
