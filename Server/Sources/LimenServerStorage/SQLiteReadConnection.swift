import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLiteNIO
import VaporCSQLite

/// A read-only connection to the store's file that runs hot reads on the caller's thread, with each statement prepared
/// once; the store keeps several (``SQLiteReadConnections``), each lent to one caller at a time.
///
/// The writing connection (``SQLiteWriteConnection``) runs on a thread of its own: a read sent there waits for the
/// thread to wake and for the batch ahead of it to commit, while a read of one indexed row takes SQLite a few
/// microseconds. This connection skips both.
///
/// It never blocks its caller on another connection: it has no busy timeout, so a read that finds the file locked
/// (a WAL checkpoint or recovery in progress) answers `nil` at once, and the store runs it on the writing connection
/// instead, where waiting is harmless. WAL readers do not wait for writers otherwise, and each statement runs in its own read
/// transaction, so a read sees every write committed before it began.
///
/// `@unchecked Sendable` because its state is the C handle's statements, and every use of them (in ``rows(_:_:)`` and
/// ``close()``) happens while `lock` is held; SQLite is opened without its own mutex for that reason. Lent to one
/// caller at a time, a connection's lock is never waited for.
final class SQLiteReadConnection: @unchecked Sendable {
    private let lock = NIOLock()
    /// Guarded by `lock`; `nil` once closed.
    private var statements: SQLitePreparedStatements?

    private init(handle: OpaquePointer) {
        statements = SQLitePreparedStatements(handle: handle)
    }

    /// Opens the existing database file at `path` read-only.
    static func open(path: String) throws(StorageError) -> SQLiteReadConnection {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite_nio_sqlite3_close_v2(handle)
            throw .openFailed("\(path) (read connection): \(reason)")
        }
        return SQLiteReadConnection(handle: handle)
    }

    /// Finalizes the statements and closes the connection; later reads answer `nil`.
    func close() {
        lock.withLock {
            guard let statements else { return }
            statements.finalize()
            sqlite_nio_sqlite3_close_v2(statements.handle)
            self.statements = nil
        }
    }

    deinit {
        close()
    }

    /// The rows of `sql` with `binds`, or `nil` when the file is locked (or the connection closed) and the read must
    /// go to the writing connection.
    func rows(_ sql: String, _ binds: [SQLiteData]) throws(StorageError) -> [SQLiteResultRow]? {
        lock.lock()
        defer { lock.unlock() }
        guard let statements else { return nil }
        switch statements.rows(sql, binds) {
        case .success(let rows): return rows
        case .failure(.busy): return nil
        case .failure(let failure): throw failure.storageError
        }
    }
}
