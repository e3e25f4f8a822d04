import Foundation
import NIOCore
import SQLiteNIO
import VaporCSQLite

/// The statements of one SQLite connection, each prepared once and run again with new binds, through SQLite's C API:
/// sqlite-nio prepares every statement anew, which took about 7 % of the writing connection's time under load.
///
/// Not thread-safe: its connection (``SQLiteReadConnection``, ``SQLiteWriteConnection``) calls it on one thread at a
/// time, and finalizes it before closing the handle.
final class SQLitePreparedStatements {
    /// Why a statement did not run.
    enum Failure: Error {
        /// Another connection holds the file (`SQLITE_BUSY` or `SQLITE_LOCKED`, past any busy timeout).
        case busy(String)
        /// The database file at `path` cannot grow: its disk is full (`SQLITE_FULL`, or an I/O error with `ENOSPC` or
        /// `EDQUOT`), or it reached `PRAGMA max_page_count`.
        case diskFull(path: String, message: String)
        /// Any other error, with SQLite's message.
        case failed(String)

        /// SQLite's message.
        var message: String {
            switch self {
            case .busy(let message), .diskFull(_, let message), .failed(let message): message
            }
        }

        /// The failure as the store reports it: a full disk is ``StorageError/diskFull(path:)``, worth trying again
        /// once space returns.
        var storageError: StorageError {
            switch self {
            case .diskFull(let path, _): .diskFull(path: path)
            case .busy(let message), .failed(let message): .queryFailed(message)
            }
        }
    }

    private struct Prepared {
        let statement: OpaquePointer
        let columnCount: Int32
        let positions: [String: Int]
    }

    /// The open connection the statements belong to.
    let handle: OpaquePointer
    /// Told the database file's path whenever a statement fails on a full disk.
    private let onDiskFull: @Sendable (String) -> Void
    private var prepared: [String: Prepared] = [:]

    /// Statements of the open connection `handle`; `onDiskFull` is told of every failure on a full disk.
    init(handle: OpaquePointer, onDiskFull: @escaping @Sendable (String) -> Void = { _ in }) {
        self.handle = handle
        self.onDiskFull = onDiskFull
    }

    /// Finalizes every statement; the connection can then be closed.
    func finalize() {
        for entry in prepared.values { sqlite_nio_sqlite3_finalize(entry.statement) }
        prepared = [:]
    }

    /// The rows of `sql` with `binds`, its statement prepared on first use and kept.
    func rows(_ sql: String, _ binds: [SQLiteData]) -> Result<[SQLiteResultRow], Failure> {
        let entry: Prepared
        switch statement(for: sql) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): entry = found
        }
        defer {
            sqlite_nio_sqlite3_reset(entry.statement)
            sqlite_nio_sqlite3_clear_bindings(entry.statement)
        }
        if let failure = bind(binds, to: entry.statement) { return .failure(failure) }
        var rows: [SQLiteResultRow] = []
        while true {
            switch sqlite_nio_sqlite3_step(entry.statement) {
            case SQLITE_ROW: rows.append(SQLiteResultRow(positions: entry.positions, values: values(of: entry)))
            case SQLITE_DONE: return .success(rows)
            case let status: return .failure(failure(status))
            }
        }
    }

    /// Runs `script`, one or more statements without binds and without keeping them (`BEGIN`, `COMMIT`, a migration's
    /// DDL, a pragma).
    func execute(_ script: String) -> Result<Void, Failure> {
        let status = sqlite_nio_sqlite3_exec(handle, script, nil, nil, nil)
        return status == SQLITE_OK ? .success(()) : .failure(failure(status))
    }

    /// Whether a transaction is open: after a failed statement, whether SQLite kept the transaction or rolled it back.
    var isInTransaction: Bool {
        sqlite_nio_sqlite3_get_autocommit(handle) == 0
    }

    private func statement(for sql: String) -> Result<Prepared, Failure> {
        if let entry = prepared[sql] { return .success(entry) }
        var statement: OpaquePointer?
        let status = sqlite_nio_sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { return .failure(failure(status)) }
        let columnCount = sqlite_nio_sqlite3_column_count(statement)
        let names = (0..<columnCount).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
        let entry = Prepared(
            statement: statement, columnCount: columnCount, positions: SQLiteResultRow.positions(of: names))
        prepared[sql] = entry
        return .success(entry)
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer) -> Failure? {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let integer): status = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
            case .float(let double): status = sqlite_nio_sqlite3_bind_double(statement, index, double)
            case .null: status = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(let text):
                status = sqlite_nio_sqlite3_bind_text64(
                    statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
            case .blob(let buffer):
                status = buffer.withUnsafeReadableBytes {
                    sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
                }
            }
            guard status == SQLITE_OK else { return failure(status) }
        }
        return nil
    }

    /// The current row's values, in column order.
    private func values(of entry: Prepared) -> [SQLiteData] {
        let statement = entry.statement
        return (0..<entry.columnCount).map { column in
            switch sqlite_nio_sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                guard let blob = sqlite_nio_sqlite3_column_blob(statement, column) else { return .blob(ByteBuffer()) }
                return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: blob, count: count)))
            default: return .null
            }
        }
    }

    /// The failure a status (a primary or extended result code) other than OK, ROW or DONE means.
    private func failure(_ status: Int32) -> Failure {
        let message = String(cString: sqlite_nio_sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(message)
        case SQLITE_FULL: return diskFull(message)
        case SQLITE_IOERR where [ENOSPC, EDQUOT].contains(sqlite_nio_sqlite3_system_errno(handle)):
            return diskFull(message)
        default: return .failed(message)
        }
    }

    private func diskFull(_ message: String) -> Failure {
        let path = path
        onDiskFull(path)
        return .diskFull(path: path, message: message)
    }

    /// The main database's file (empty for an in-memory database).
    private var path: String {
        sqlite_nio_sqlite3_db_filename(handle, "main").map { String(cString: $0) } ?? ""
    }

    /// SQLite copies a value bound with this destructor before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
