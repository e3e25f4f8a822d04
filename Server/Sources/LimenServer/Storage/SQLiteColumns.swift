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
        var positions: [String: Int] = [:]
        for (position, column) in columns.enumerated() where positions[column.name] == nil {
            positions[column.name] = position
        }
        self.init(positions: positions, values: columns.map(\.data))
    }
}
