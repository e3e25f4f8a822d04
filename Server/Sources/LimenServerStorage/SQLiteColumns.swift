import SQLiteNIO

/// A result row read by column name: sqlite-nio's ``SQLiteRow`` or a ``SQLiteResultRow`` of the
/// ``SQLiteReadConnection``, so that one decoder per record serves both.
protocol SQLiteColumns {
    /// The value of the column `name`, `nil` when the row has no such column.
    func column(_ name: String) -> SQLiteData?
}

extension SQLiteRow: SQLiteColumns {}

/// A row stepped by the ``SQLiteReadConnection``: the statement's column names, shared by its rows, and this row's
/// values in column order.
struct SQLiteResultRow: SQLiteColumns, Sendable {
    /// Each column's position by name (the first, when a name repeats).
    let positions: [String: Int]
    /// The values, in column order.
    let values: [SQLiteData]

    func column(_ name: String) -> SQLiteData? {
        positions[name].map { values[$0] }
    }
}

extension SQLiteResultRow {
    /// The same columns as sqlite-nio's `row`.
    init(_ row: SQLiteRow) {
        let columns = row.columns
        self.init(positions: Self.positions(of: columns.map(\.name)), values: columns.map(\.data))
    }

    /// Each of `names`' position by name, the first when a name repeats (as SQLite's own lookup by name answers).
    static func positions(of names: [String]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil {
            positions[name] = position
        }
        return positions
    }
}
