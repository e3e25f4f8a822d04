import SQLiteNIO

/// A row stepped by ``SQLitePreparedStatements``: the statement's column names, shared by its rows, and this row's
/// values in column order.
struct SQLiteResultRow: Sendable {
    /// Each column's position by name (the first, when a name repeats).
    let positions: [String: Int]
    /// The values, in column order.
    let values: [SQLiteData]

    /// The value of the column `name`, `nil` when the row has no such column.
    func column(_ name: String) -> SQLiteData? {
        positions[name].map { values[$0] }
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
