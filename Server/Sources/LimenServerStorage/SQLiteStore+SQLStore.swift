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

    /// The change and the events' insert as one unit of ``SQLiteGroupCommit``.
    @discardableResult
    func execute(_ query: SQLQuery, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> [SQLiteResultRow]
    {
        guard let insert = SecurityEventRecord.insert(events, when: nil) else { return try await execute(query) }
        let (sql, values) = query.rendered(in: .sqlite)
        let (insertSQL, insertValues) = insert.rendered(in: .sqlite)
        let rows = try await self.query(
            sql, values.map(Self.sqliteData), followedBy: (insertSQL, insertValues.map(Self.sqliteData)))
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
