import Foundation

/// A result row of either dialect, read by column name: one decoder per record serves SQLite and PostgreSQL.
protocol SQLRow {
    /// The value of `column`: ``SQLValue/null`` for SQL `NULL`, `nil` when the row has no such column.
    func sqlValue(_ column: String) throws(StorageError) -> SQLValue?
}

/// Typed reads of a row's columns. A required column that is missing, `NULL` or of another kind is a corrupt row.
extension SQLRow {
    /// A `TEXT` column.
    func text(_ column: String) throws(StorageError) -> String {
        try required(column, optionalText(column))
    }

    /// A `TEXT` column that may be `NULL`.
    func optionalText(_ column: String) throws(StorageError) -> String? {
        switch try sqlValue(column) {
        case .text(let text): text
        case .null, nil: nil
        case let other?: throw .corruptRow("\(column) is \(other), not text")
        }
    }

    /// An integer column.
    func integer(_ column: String) throws(StorageError) -> Int {
        try required(column, optionalInteger(column))
    }

    /// An integer column that may be `NULL`.
    func optionalInteger(_ column: String) throws(StorageError) -> Int? {
        switch try sqlValue(column) {
        case .integer(let integer): Int(integer)
        case .null, nil: nil
        case let other?: throw .corruptRow("\(column) is \(other), not an integer")
        }
    }

    /// A boolean column (`INTEGER` 0/1 in SQLite, `BOOLEAN` in PostgreSQL); `NULL` reads as false.
    func bool(_ column: String) throws(StorageError) -> Bool {
        switch try sqlValue(column) {
        case .bool(let bool): bool
        case .integer(let integer): integer != 0
        case .null, nil: false
        case let other?: throw .corruptRow("\(column) is \(other), not a boolean")
        }
    }

    /// A `BLOB` / `BYTEA` column.
    func data(_ column: String) throws(StorageError) -> Data {
        try required(column, optionalData(column))
    }

    /// A `BLOB` / `BYTEA` column that may be `NULL`.
    func optionalData(_ column: String) throws(StorageError) -> Data? {
        switch try sqlValue(column) {
        case .blob(let data): data
        case .null, nil: nil
        case let other?: throw .corruptRow("\(column) is \(other), not bytes")
        }
    }

    /// A time, stored as whole seconds since 1970.
    func date(_ column: String) throws(StorageError) -> Date {
        try required(column, optionalDate(column))
    }

    /// A time that may be `NULL`.
    func optionalDate(_ column: String) throws(StorageError) -> Date? {
        try optionalInteger(column).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// A duration in whole seconds that may be `NULL`.
    func optionalSeconds(_ column: String) throws(StorageError) -> TimeInterval? {
        try optionalInteger(column).map(TimeInterval.init)
    }

    /// A `TEXT` column holding a JSON array of strings.
    func strings(_ column: String) throws(StorageError) -> [String] {
        guard let strings = try? JSONDecoder().decode([String].self, from: Data(try text(column).utf8)) else {
            throw .corruptRow("\(column) is not a JSON array of strings")
        }
        return strings
    }

    /// A `TEXT` column holding one of `Value`'s raw values.
    func value<Value: RawRepresentable<String>>(_ column: String, as type: Value.Type) throws(StorageError) -> Value {
        let text = try text(column)
        guard let value = Value(rawValue: text) else { throw .corruptRow("\(column) holds \(text), not a known value") }
        return value
    }

    /// A `TEXT` column holding a JSON array of `Value`'s raw values.
    func values<Value: RawRepresentable<String>>(_ column: String, as type: Value.Type) throws(StorageError) -> [Value]
    {
        let strings = try strings(column)
        let values = strings.compactMap(Value.init(rawValue:))
        guard values.count == strings.count else { throw .corruptRow("\(column) holds a value that is not known") }
        return values
    }

    private func required<Value>(_ column: String, _ value: Value?) throws(StorageError) -> Value {
        guard let value else { throw .corruptRow("\(column) is missing") }
        return value
    }
}
