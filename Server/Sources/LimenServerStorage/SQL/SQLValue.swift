import Foundation

/// A value bound to a statement, in the five kinds both SQLite and PostgreSQL store the same way: times are whole
/// seconds since 1970 and durations whole seconds (`INTEGER` / `BIGINT`), booleans `INTEGER` 0/1 in SQLite and
/// `BOOLEAN` in PostgreSQL, bytes `BLOB` / `BYTEA`.
enum SQLValue: Sendable, Equatable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A boolean.
    case bool(Bool)
    /// Text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// A duration as whole seconds, `NULL` when absent.
    static func seconds(_ interval: TimeInterval?) -> SQLValue {
        interval.map { .integer(Int64($0.rounded(.down))) } ?? .null
    }
}

/// A Swift value a ``SQLQuery`` binds by interpolation: `"… WHERE id = \(id)"` sends `id` as a parameter, never as
/// SQL text.
protocol SQLBindable {
    /// The value as bound.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    var sqlValue: SQLValue { self }
}

extension String: SQLBindable {
    var sqlValue: SQLValue { .text(self) }
}

extension Int: SQLBindable {
    var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    var sqlValue: SQLValue { .integer(self) }
}

extension Bool: SQLBindable {
    var sqlValue: SQLValue { .bool(self) }
}

extension Data: SQLBindable {
    var sqlValue: SQLValue { .blob(self) }
}

extension Date: SQLBindable {
    /// Whole seconds since 1970, as every table stores a time.
    var sqlValue: SQLValue { .integer(Int64(timeIntervalSince1970.rounded(.down))) }
}

extension Array: SQLBindable where Element == String {
    /// A JSON array of strings in a `TEXT` column.
    var sqlValue: SQLValue {
        .text(String(decoding: (try? JSONEncoder().encode(self)) ?? Data("[]".utf8), as: UTF8.self))
    }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
