/// The SQL a store speaks: the few places where SQLite and PostgreSQL differ are ``SQLFragment``s of a ``SQLQuery``.
enum SQLDialect: Sendable {
    /// SQLite 3.35 or later (`RETURNING`, `ON CONFLICT … DO UPDATE`).
    case sqlite
    /// PostgreSQL 13 or later.
    case postgres
}

/// SQL text that differs between the dialects, interpolated into a ``SQLQuery`` as it is (never a value).
struct SQLFragment: Sendable {
    /// The text in SQLite.
    let sqlite: String
    /// The text in PostgreSQL.
    let postgres: String

    /// The text in `dialect`.
    func text(in dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }

    /// The larger of its arguments: `MAX(a, b)` / `GREATEST(a, b)`.
    static let greatest = SQLFragment(sqlite: "MAX", postgres: "GREATEST")
    /// The smaller of its arguments: `MIN(a, b)` / `LEAST(a, b)`.
    static let least = SQLFragment(sqlite: "MIN", postgres: "LEAST")
    /// A row lock for the rest of the transaction (`FOR UPDATE`); SQLite's one writer needs none.
    static let forUpdate = SQLFragment(sqlite: "", postgres: "FOR UPDATE")
    /// A row lock that passes over rows another transaction holds (`FOR UPDATE SKIP LOCKED`), for a queue's workers.
    static let forUpdateSkipLocked = SQLFragment(sqlite: "", postgres: "FOR UPDATE SKIP LOCKED")
    /// A lock that keeps a row from being deleted while another row refers to it (`FOR KEY SHARE`).
    static let forKeyShare = SQLFragment(sqlite: "", postgres: "FOR KEY SHARE")
}

/// One statement written once for both dialects: literal SQL, values bound by interpolation, and ``SQLFragment``s.
///
/// ```swift
/// try await execute("SELECT * FROM users WHERE id = \(id)")
/// ```
struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    /// A piece of the statement.
    enum Part: Sendable {
        /// SQL text.
        case sql(String)
        /// A bound parameter.
        case value(SQLValue)
        /// Text that differs between the dialects.
        case fragment(SQLFragment)
    }

    /// The statement's pieces in order.
    private(set) var parts: [Part]

    init(stringLiteral value: String) {
        parts = [.sql(value)]
    }

    init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// Builds the pieces of an interpolated literal.
    struct StringInterpolation: StringInterpolationProtocol {
        /// The pieces so far.
        var parts: [Part] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        mutating func appendLiteral(_ literal: String) {
            parts.append(.sql(literal))
        }

        /// Binds `value` as a parameter.
        mutating func appendInterpolation(_ value: some SQLBindable) {
            parts.append(.value(value.sqlValue))
        }

        /// Binds `value` as a parameter, `NULL` when it is `nil`. Spelled out for optionals so that the compiler does not
        /// take an optional in a statement for a mistaken debug description (which it warns of for `some SQLBindable`).
        mutating func appendInterpolation<Wrapped: SQLBindable>(_ value: Wrapped?) {
            parts.append(.value(value.sqlValue))
        }

        /// Inserts the dialect's text of `fragment`.
        mutating func appendInterpolation(_ fragment: SQLFragment) {
            parts.append(.fragment(fragment))
        }

        /// Inserts another statement's pieces (a shared column list or `SELECT`).
        mutating func appendInterpolation(_ query: SQLQuery) {
            parts.append(contentsOf: query.parts)
        }
    }

    /// The statement's text in `dialect`, with its placeholders (`?` in SQLite, `$1`, `$2`, … in PostgreSQL), and the
    /// values they stand for, in order.
    func rendered(in dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        var sql = ""
        var values: [SQLValue] = []
        for part in parts {
            switch part {
            case .sql(let text): sql += text
            case .fragment(let fragment): sql += fragment.text(in: dialect)
            case .value(let value):
                values.append(value)
                sql += dialect == .sqlite ? "?" : "$\(values.count)"
            }
        }
        return (sql, values)
    }
}
