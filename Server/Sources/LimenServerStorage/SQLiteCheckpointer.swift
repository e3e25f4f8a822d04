import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLiteNIO
import VaporCSQLite

/// Moves the store's committed WAL pages into its database file, off the commit path: the writing connection runs with
/// `wal_autocheckpoint = 0`, so no commit stalls while SQLite copies a thousand pages and syncs the file (issue 22).
///
/// It has a connection and a thread of its own (``SQLiteWriteConnection``), and runs ``checkpoint()`` every
/// ``interval`` from ``start(on:)`` until ``close()``. A checkpoint is `PASSIVE`: it copies what no reader still needs
/// and waits for no one, so neither the writer nor a reader waits for it. When the WAL file has grown past ``walLimit``
/// (readers kept it from being reused from its start) it then tries `TRUNCATE`, which empties the file if no reader
/// holds an older snapshot and otherwise gives up at once (no busy timeout), so the WAL cannot grow without bound.
///
/// Only for a file database: an in-memory one has no WAL.
final class SQLiteCheckpointer: Sendable {
    /// What one ``checkpoint()`` found and did.
    struct Outcome: Sendable, Equatable {
        /// The frames (pages) in the WAL.
        let frames: Int
        /// How many of them are now in the database file.
        let checkpointed: Int
        /// Whether the WAL file was past ``walLimit`` and was emptied.
        let truncated: Bool
    }

    /// How often ``start(on:)`` runs a checkpoint: often enough that a WAL holds a few hundred pages between two.
    static let interval = Duration.milliseconds(250)
    /// The WAL file size past which a checkpoint tries to empty it by default, in bytes.
    static let defaultWALLimit = 64 << 20

    /// The WAL file size past which a checkpoint tries to empty it, in bytes.
    let walLimit: Int
    private let connection: SQLiteWriteConnection
    private let walPath: String
    private let logger: Logger
    private let loop = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private init(
        connection: SQLiteWriteConnection, walPath: String, walLimit: Int, logger: Logger
    ) {
        self.connection = connection
        self.walPath = walPath
        self.walLimit = walLimit
        self.logger = logger
    }

    /// A checkpointer for the WAL-mode database file at `path`, with a connection of its own; not started.
    static func open(
        path: String,
        walLimit: Int = defaultWALLimit,
        logger: Logger
    ) async throws(StorageError) -> SQLiteCheckpointer {
        let connection = try await SQLiteWriteConnection.open(path: path)
        do {
            // A connection that has not read the file yet does not know it is in WAL mode: its checkpoints do nothing.
            try await connection.execute("PRAGMA journal_mode")
        } catch {
            await connection.close()
            throw error
        }
        return SQLiteCheckpointer(
            connection: connection, walPath: path + "-wal", walLimit: walLimit, logger: logger)
    }

    /// Runs ``checkpoint()`` every ``interval`` on `clock` until ``close()``; a failed one is logged and the next
    /// one runs as planned.
    func start(on clock: any Clock<Duration> = ContinuousClock()) {
        let task = Task { [self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: Self.interval)
                    _ = try await checkpoint()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
                }
            }
        }
        let earlier = loop.withLockedValue { loop in
            defer { loop = task }
            return loop
        }
        earlier?.cancel()
    }

    /// Copies the WAL's committed pages that no reader needs into the database file, and empties the WAL file when it
    /// is past ``walLimit`` and no reader holds an older snapshot.
    func checkpoint() async throws(StorageError) -> Outcome {
        let limit = walLimit
        let walPath = walPath
        let result: Result<Outcome, StorageError> = await connection.run { statements in
            guard let statements else { return .failure(.queryFailed("the checkpointer is closed")) }
            let passive = Self.checkpoint(statements.handle, mode: SQLITE_CHECKPOINT_PASSIVE)
            guard case .success(let frames) = passive, Self.fileSize(walPath) > limit else {
                return passive.map { Outcome(frames: $0.frames, checkpointed: $0.checkpointed, truncated: false) }
            }
            // Gives up at once (as PASSIVE) when a reader or the writer is in the way: no busy timeout.
            let truncated = Self.checkpoint(statements.handle, mode: SQLITE_CHECKPOINT_TRUNCATE)
            let emptied = (try? truncated.get())?.frames == 0
            return .success(Outcome(frames: frames.frames, checkpointed: frames.checkpointed, truncated: emptied))
        }
        return try result.get()
    }

    /// Stops the checkpoints and closes the connection; a later ``checkpoint()`` fails.
    func close() async {
        let task = loop.withLockedValue { loop in
            defer { loop = nil }
            return loop
        }
        task?.cancel()
        await task?.value
        await connection.close()
    }

    /// Runs one checkpoint of `mode` on `handle`: the WAL's frames and how many are in the database file, or SQLite's
    /// error (`SQLITE_BUSY` when another checkpoint runs, or `TRUNCATE` could not empty the file).
    private static func checkpoint(
        _ handle: OpaquePointer, mode: Int32
    ) -> Result<(frames: Int, checkpointed: Int), StorageError> {
        var frames: Int32 = 0
        var checkpointed: Int32 = 0
        let status = sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, mode, &frames, &checkpointed)
        guard status == SQLITE_OK else {
            return .failure(.queryFailed("checkpoint: " + String(cString: sqlite_nio_sqlite3_errmsg(handle))))
        }
        guard frames >= 0 else { return .failure(.queryFailed("checkpoint: the database is not in WAL mode")) }
        return .success((Int(frames), Int(checkpointed)))
    }

    /// The size of the file at `path` in bytes, 0 when there is none.
    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
