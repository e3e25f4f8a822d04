/// A column of a ``TableDefinition``, in the kinds both dialects store the same way (see ``SQLValue``).
struct ColumnDefinition: Sendable {
    /// What the column holds.
    enum Kind: Sendable {
        /// `TEXT`.
        case text
        /// A 64-bit integer: `INTEGER` / `BIGINT`.
        case integer
        /// `INTEGER` 0/1 / `BOOLEAN`.
        case boolean
        /// `BLOB` / `BYTEA`.
        case bytes
        /// Whole seconds since 1970: `INTEGER` / `BIGINT`.
        case time
    }

    /// A default value: numbers and booleans only, the defaults a schema needs, so that no text is spliced into SQL.
    enum Default: Sendable {
        /// An integer.
        case integer(Int64)
        /// A boolean.
        case bool(Bool)

        /// The literal in `dialect`.
        func literal(in dialect: SQLDialect) -> String {
            switch self {
            case .integer(let integer): "\(integer)"
            case .bool(let bool): dialect == .sqlite ? (bool ? "1" : "0") : (bool ? "TRUE" : "FALSE")
            }
        }
    }

    /// What happens to a row when the row it refers to is deleted.
    enum OnDelete: String, Sendable {
        /// The row goes too.
        case cascade = "CASCADE"
        /// The reference becomes `NULL`.
        case setNull = "SET NULL"
    }

    /// The column's name.
    var name: String
    /// What it holds.
    var kind: Kind
    /// Whether it may be `NULL`.
    var isNullable = false
    /// The value a row gets when an insert leaves the column out.
    var defaultValue: Default?
    /// The table and column it refers to, and what a deletion there does.
    var references: (table: String, column: String, onDelete: OnDelete)?

    /// The column's type in `dialect`.
    func type(in dialect: SQLDialect) -> String {
        switch (kind, dialect) {
        case (.text, _): "TEXT"
        case (.integer, .sqlite), (.time, .sqlite), (.boolean, .sqlite): "INTEGER"
        case (.integer, .postgres), (.time, .postgres): "BIGINT"
        case (.boolean, .postgres): "BOOLEAN"
        case (.bytes, .sqlite): "BLOB"
        case (.bytes, .postgres): "BYTEA"
        }
    }

    /// The column's clause in a `CREATE TABLE` or `ADD COLUMN` for `dialect`.
    func definition(in dialect: SQLDialect) -> String {
        var clause = "\(name) \(type(in: dialect))"
        if !isNullable { clause += " NOT NULL" }
        if let defaultValue { clause += " DEFAULT \(defaultValue.literal(in: dialect))" }
        if let references {
            clause += " REFERENCES \(references.table)(\(references.column)) ON DELETE \(references.onDelete.rawValue)"
        }
        return clause
    }
}

/// A table written once and created in either dialect.
///
/// ```swift
/// TableDefinition(
///     name: "profiles",
///     columns: [
///         ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
///         ColumnDefinition(name: "data", kind: .text),
///         ColumnDefinition(name: "updated_at", kind: .time),
///     ],
///     primaryKey: ["user_id"]
/// )
/// ```
struct TableDefinition: Sendable {
    /// The table's name.
    var name: String
    /// Its columns, in order.
    var columns: [ColumnDefinition]
    /// The columns of its primary key.
    var primaryKey: [String]
    /// Further column sets that must be unique.
    var unique: [[String]] = []

    /// The `CREATE TABLE` statement for `dialect`.
    func createStatement(in dialect: SQLDialect) -> String {
        let clauses =
            columns.map { $0.definition(in: dialect) } + ["PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
            + unique.map { "UNIQUE (\($0.joined(separator: ", ")))" }
        return "CREATE TABLE \(name) (\n    " + clauses.joined(separator: ",\n    ") + "\n)"
    }
}

/// One change to the schema, written once for both dialects.
enum SchemaChange: Sendable {
    /// Creates a table.
    case createTable(TableDefinition)
    /// Adds a column to an existing table.
    case addColumn(table: String, ColumnDefinition)
    /// Creates an index `name` on `columns` of `table`.
    case createIndex(name: String, table: String, columns: [String], isUnique: Bool = false)
    /// What the dialects cannot say alike (SQLite rebuilds a table to drop a `NOT NULL`; PostgreSQL alters it), each
    /// written out: kept for the changes no shared form covers.
    case dialectSpecific(sqlite: [String], postgres: [String])

    /// The statements for `dialect`.
    func statements(in dialect: SQLDialect) -> [String] {
        switch self {
        case .createTable(let table): [table.createStatement(in: dialect)]
        case .addColumn(let table, let column): ["ALTER TABLE \(table) ADD COLUMN \(column.definition(in: dialect))"]
        case .createIndex(let name, let table, let columns, let isUnique):
            ["CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))"]
        case .dialectSpecific(let sqlite, let postgres): dialect == .sqlite ? sqlite : postgres
        }
    }
}

/// A migration written once: its changes become each dialect's ``Migration`` of the same version.
struct SchemaMigration: Sendable {
    /// Increasing, after the last migration written per dialect; never reused or edited once released.
    var version: Int
    /// What the step does, recorded with it.
    var name: String
    /// The changes, applied in order in one transaction.
    var changes: [SchemaChange]
    /// Whether SQLite must apply it with foreign keys off (a table rebuilt: dropping the old one would otherwise delete
    /// the rows that refer to it); the foreign keys are checked before it commits.
    var needsForeignKeysOff = false

    /// The step as `dialect` applies it.
    func migration(in dialect: SQLDialect) -> Migration {
        Migration(
            version: version, name: name, statements: changes.flatMap { $0.statements(in: dialect) },
            needsForeignKeysOff: needsForeignKeysOff)
    }
}

extension SchemaMigration {
    /// Version `version` (`name`): creates `table`, the SHA-256 hashes of values accepted once (`key`, its primary
    /// key) each remembered until `expires_at`, indexed for the expiry sweep.
    static func singleUse(version: Int, name: String, table: String, key: String) -> SchemaMigration {
        SchemaMigration(
            version: version,
            name: name,
            changes: [
                .createTable(
                    TableDefinition(
                        name: table,
                        columns: [
                            ColumnDefinition(name: key, kind: .bytes),
                            ColumnDefinition(name: "expires_at", kind: .time),
                        ],
                        primaryKey: [key])),
                .createIndex(name: table + "_expires_at", table: table, columns: ["expires_at"]),
            ])
    }
}
