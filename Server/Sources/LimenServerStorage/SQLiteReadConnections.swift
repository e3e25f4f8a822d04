import NIOConcurrencyHelpers
import NIOCore
import SQLiteNIO

/// The store's read connections (``SQLiteReadConnection``), each lent to one caller at a time: a caller never waits for
/// another's statement. The lock guards only the list of idle connections, taken and put back around a read, never
/// held while SQLite runs; when every connection is lent out, the read answers `nil` and goes to the writing
/// connection.
///
/// Reads run on the calling task's thread: Hummingbird runs handlers on Swift's cooperative pool, never on an event
/// loop, and a hot read takes SQLite a few microseconds.
final class SQLiteReadConnections: Sendable {
    private struct State {
        var idle: [SQLiteReadConnection]
        var isClosed = false
    }

    private let state: NIOLockedValueBox<State>

    /// Connections already opened (``SQLiteReadConnection/open(path:)``), lent out one caller at a time.
    init(_ connections: [SQLiteReadConnection]) {
        state = NIOLockedValueBox(State(idle: connections))
    }

    /// Opens `count` read-only connections to the database file at `path`: as many as reads that run at once, one a
    /// processor by default.
    static func open(path: String, count: Int = System.coreCount) throws(StorageError) -> SQLiteReadConnections {
        var connections: [SQLiteReadConnection] = []
        do {
            for _ in 0..<max(1, count) { connections.append(try SQLiteReadConnection.open(path: path)) }
        } catch {
            for connection in connections { connection.close() }
            throw error
        }
        return SQLiteReadConnections(connections)
    }

    /// The rows of `sql` with `binds` on an idle connection, or `nil` when none is idle, the file is locked or the
    /// connections are closed: then the read must go to the writing connection.
    func rows(_ sql: String, _ binds: [SQLiteData]) throws(StorageError) -> [SQLiteResultRow]? {
        guard let connection = borrow() else { return nil }
        defer { giveBack(connection) }
        return try connection.rows(sql, binds)
    }

    /// Closes the idle connections now and each lent one when it comes back.
    func close() {
        let idle = state.withLockedValue { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { connection.close() }
    }

    /// An idle connection, taken out of the list; `nil` when none is idle.
    func borrow() -> SQLiteReadConnection? {
        state.withLockedValue { $0.idle.popLast() }
    }

    /// Puts `connection` back among the idle ones, or closes it when the connections have been closed meanwhile.
    func giveBack(_ connection: SQLiteReadConnection) {
        let isClosed = state.withLockedValue { state in
            if !state.isClosed { state.idle.append(connection) }
            return state.isClosed
        }
        if isClosed { connection.close() }
    }
}
