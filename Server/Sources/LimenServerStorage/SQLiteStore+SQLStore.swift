import Foundation
import NIOCore
import SQLiteNIO

/// How SQLite runs the statements written once for both dialects.
extension SQLiteStore: SQLStore {
    var dialect: SQLDialect { .sqlite }

    @discardableResult
    func execute(_ query: SQLQuery) async throws(StorageError) -> [SQLiteResultRow] {
        let (sql, values) = query.rendered(in: .sqlite)
        return try await self.query(sql, values.map(Self.sqliteData))
    }

    /// The change, its follow-ups and the events' insert as one unit of ``SQLiteGroupCommit``, which runs the follow-ups
    /// only once the change returned rows: their condition always holds.
    @discardableResult
    func execute(
        _ query: SQLQuery, followedBy followUps: (_ whenChanged: SQLQuery) -> [SQLQuery],
        recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> [SQLiteResultRow] {
        let unit = followUps("1 = 1") + [SecurityEventRecord.insert(events, when: nil)].compactMap { $0 }
        guard !unit.isEmpty else { return try await execute(query) }
        let (sql, values) = query.rendered(in: .sqlite)
        let rows = try await self.query(
            sql, values.map(Self.sqliteData),
            followedBy: unit.map { statement in
                let (sql, values) = statement.rendered(in: .sqlite)
                return (sql, values.map(Self.sqliteData))
            })
        if !rows.isEmpty { SecurityEventMetrics.count(events) }
        return rows
    }

    /// On a read connection when one can answer at once (see ``SQLiteReadConnection``), else on the writing connection.
    func read(_ query: SQLQuery) async throws(StorageError) -> [SQLiteResultRow] {
        let (sql, values) = query.rendered(in: .sqlite)
        return try await readRows(sql, values.map(Self.sqliteData))
    }

    /// `value` as sqlite-nio binds it: booleans as 0 or 1.
    static func sqliteData(_ value: SQLValue) -> SQLiteData {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(Int(integer))
        case .bool(let bool): .integer(bool ? 1 : 0)
        case .text(let text): .text(text)
        case .blob(let data): .blob(ByteBuffer(bytes: data))
        }
    }
}
