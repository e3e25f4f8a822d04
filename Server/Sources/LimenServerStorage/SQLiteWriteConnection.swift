import NIOPosix
import SQLiteNIO
import VaporCSQLite

/// The store's one connection that writes, with a thread of its own: every SQLite call on it runs on that thread,
/// never on `NIOThreadPool.singleton`, so a statement waiting for another process's lock (up to the busy timeout)
/// holds up only this connection, never password hashing or another store.
///
/// Work reaches the thread as closures given the connection's ``SQLitePreparedStatements``: ``run(_:)`` for one
/// piece of work awaited (opening, a migration), ``execute(_:)`` for a statement that needs no rows (a pragma),
/// ``submit(_:)`` for ``SQLiteGroupCommit``'s batches.
///
/// `@unchecked Sendable` because its one piece of state, `statements`, is read and written only on `thread`.
final class SQLiteWriteConnection: @unchecked Sendable {
    private let thread: NIOThreadPool
    /// Only on `thread`; `nil` once closed.
    private var statements: SQLitePreparedStatements?

    private init(thread: NIOThreadPool) {
        self.thread = thread
    }

    /// Opens (creating if needed) the database file at `path`, or a private in-memory database for `":memory:"`;
    /// `onDiskFull` is told the file's path whenever a statement fails because its disk is full.
    static func open(
        path: String,
        onDiskFull: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(StorageError) -> SQLiteWriteConnection {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let connection = SQLiteWriteConnection(thread: thread)
        let opened: Result<Void, StorageError> = await connection.run { _ in
            connection.openOnThread(path: path, onDiskFull: onDiskFull)
        }
        do {
            try opened.get()
        } catch {
            try? await thread.shutdownGracefully()
            throw error
        }
        return connection
    }

    /// Runs `body` on the connection's thread with its statements (`nil` once closed) and returns what it returns.
    func run<T: Sendable>(_ body: @escaping @Sendable (SQLitePreparedStatements?) -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { statements in continuation.resume(returning: body(statements)) }
        }
    }

    /// Runs `script`, one or more statements without binds (a pragma), on the connection's thread outside
    /// ``SQLiteGroupCommit``, and waits for it.
    func execute(_ script: String) async throws(StorageError) {
        let result: Result<Void, StorageError> = await run { statements in
            guard let statements else { return .failure(.queryFailed("the store is closed")) }
            return statements.execute(script).mapError(\.storageError)
        }
        try result.get()
    }

    /// Starts `body` on the connection's thread with its statements (`nil` once closed), after the work already given.
    func submit(_ body: @escaping @Sendable (SQLitePreparedStatements?) -> Void) {
        thread.submit { [self] state in body(state == .active ? statements : nil) }
    }

    /// Finalizes the statements, closes the connection and stops its thread; later work gets `nil`.
    func close() async {
        await run { [self] statements in
            guard let statements else { return }
            statements.finalize()
            sqlite_nio_sqlite3_close_v2(statements.handle)
            self.statements = nil
        }
        try? await thread.shutdownGracefully()
    }

    /// Opens the handle; on the thread.
    private func openOnThread(path: String, onDiskFull: @escaping @Sendable (String) -> Void) -> Result<
        Void, StorageError
    > {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite_nio_sqlite3_close_v2(handle)
            return .failure(.openFailed("\(path): \(reason)"))
        }
        statements = SQLitePreparedStatements(handle: handle, onDiskFull: onDiskFull)
        return .success(())
    }
}
