import Foundation
import NIOCore
import SQLiteNIO

/// How SQLite runs the statements written once for both dialects.
extension SQLiteStore: SQLStore {
    var dialect: SQLDialect { .sqlite }

    @discardableResult
    func execute(_ query: SQLQuery) async throws(StorageError) -> [SQLiteResultRow] {
        let (sql, values) = query.rendered(in: .sqlite)
        let rows = try await self.query(sql, values.map(Self.sqliteData))
        // Every row of a result has the same columns: their positions are looked up once.
        guard let first = rows.first else { return [] }
        let positions = SQLiteResultRow.positions(of: first.columns.map(\.name))
        return rows.map { SQLiteResultRow(positions: positions, values: $0.columns.map(\.data)) }
    }

    /// On the read connection when it can answer at once (see ``SQLiteReadConnection``), else through the pool.
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
