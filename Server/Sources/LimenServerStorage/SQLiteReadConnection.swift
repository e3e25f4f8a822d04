import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLiteNIO
import VaporCSQLite

/// A read-only connection to the store's file that runs hot reads on the caller's thread, with each statement prepared
/// once; the store keeps several (``SQLiteReadConnections``), each lent to one caller at a time.
///
/// sqlite-nio runs every statement on its thread pool: a pool thread is woken for it, and its result wakes the event
/// loop again. For a read of one indexed row, which takes SQLite a few microseconds, those two hops cost about ten
/// times as much CPU (about 40 µs a request on the benchmark machine). This connection skips them.
///
/// It never blocks its caller on another connection: it has no busy timeout, so a read that finds the file locked
/// (a WAL checkpoint or recovery in progress) answers `nil` at once, and the store runs it through the pool instead,
/// where waiting is harmless. WAL readers do not wait for writers otherwise, and each statement runs in its own read
/// transaction, so a read sees every write committed before it began.
///
/// `@unchecked Sendable` because its state is two private C-pointer holders, and every read or write of them (in
/// ``rows(_:_:)``, ``close()`` and the helpers they call) happens while `lock` is held; SQLite is opened without its
/// own mutex for that reason. Lent to one caller at a time, a connection's lock is never waited for.
final class SQLiteReadConnection: @unchecked Sendable {
    private struct Prepared {
        let statement: OpaquePointer
        let columnCount: Int32
        let positions: [String: Int]
    }

    private let lock = NIOLock()
    /// Guarded by `lock`; `nil` once closed.
    private var handle: OpaquePointer?
    /// Guarded by `lock`: each statement prepared so far, by its SQL.
    private var prepared: [String: Prepared] = [:]

    private init(handle: OpaquePointer) {
        self.handle = handle
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
            for entry in prepared.values { sqlite_nio_sqlite3_finalize(entry.statement) }
            prepared = [:]
            sqlite_nio_sqlite3_close_v2(handle)
            handle = nil
        }
    }

    deinit {
        close()
    }

    /// The rows of `sql` with `binds`, or `nil` when the file is locked (or the connection closed) and the read must
    /// go through the pool.
    func rows(_ sql: String, _ binds: [SQLiteData]) throws(StorageError) -> [SQLiteResultRow]? {
        lock.lock()
        defer { lock.unlock() }
        guard let handle, let entry = try statement(for: sql, on: handle) else { return nil }
        defer {
            sqlite_nio_sqlite3_reset(entry.statement)
            sqlite_nio_sqlite3_clear_bindings(entry.statement)
        }
        try bind(binds, to: entry.statement, on: handle)
        var rows: [SQLiteResultRow] = []
        while true {
            switch sqlite_nio_sqlite3_step(entry.statement) {
            case SQLITE_ROW:
                rows.append(SQLiteResultRow(positions: entry.positions, values: values(of: entry)))
            case SQLITE_DONE:
                return rows
            case let status where Self.isBusy(status):
                return nil
            default:
                throw .queryFailed(Self.message(handle))
            }
        }
    }

    /// The prepared statement for `sql`, preparing it on first use; `nil` when the file is locked (preparing reads the
    /// schema).
    private func statement(for sql: String, on handle: OpaquePointer) throws(StorageError) -> Prepared? {
        if let entry = prepared[sql] { return entry }
        var statement: OpaquePointer?
        let status = sqlite_nio_sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        if Self.isBusy(status) { return nil }
        guard status == SQLITE_OK, let statement else { throw .queryFailed(Self.message(handle)) }
        let columnCount = sqlite_nio_sqlite3_column_count(statement)
        let names = (0..<columnCount).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
        let entry = Prepared(
            statement: statement, columnCount: columnCount, positions: SQLiteResultRow.positions(of: names))
        prepared[sql] = entry
        return entry
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer, on handle: OpaquePointer)
        throws(StorageError)
    {
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
            guard status == SQLITE_OK else { throw .queryFailed(Self.message(handle)) }
        }
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

    /// Whether `status` (a primary or extended result code) says another connection holds the file.
    private static func isBusy(_ status: Int32) -> Bool {
        status & 0xFF == SQLITE_BUSY || status & 0xFF == SQLITE_LOCKED
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: sqlite_nio_sqlite3_errmsg(handle))
    }

    /// SQLite copies a value bound with this destructor before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
