/// The migrations written once for both dialects (``SchemaMigration``), after the ones each dialect keeps as released
/// (``SQLiteMigrations`` and ``PostgresMigrations``, versions 1–11): a new table or column goes here, never into both
/// of those.
enum SchemaMigrations {
    /// Oldest first, from version 12.
    static let written: [SchemaMigration] = [profiles]

    /// Version 13: the app schema (one row) and each user's profile data, gone with the user.
    static let profiles = SchemaMigration(
        version: 13,
        name: "profiles",
        changes: [
            .createTable(
                TableDefinition(
                    name: "app_schema",
                    columns: [
                        ColumnDefinition(name: "id", kind: .integer),
                        ColumnDefinition(name: "document", kind: .text),
                        ColumnDefinition(name: "file_digest", kind: .text, isNullable: true),
                        ColumnDefinition(name: "updated_at", kind: .time),
                    ],
                    primaryKey: ["id"]
                )),
            .createTable(
                TableDefinition(
                    name: "profiles",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "data", kind: .text),
                        ColumnDefinition(name: "revision", kind: .integer),
                        ColumnDefinition(name: "updated_at", kind: .time),
                    ],
                    primaryKey: ["user_id"]
                )),
        ]
    )

    /// Every migration of `dialect`, oldest first.
    static func all(in dialect: SQLDialect) -> [Migration] {
        let released = dialect == .sqlite ? SQLiteMigrations.all : PostgresMigrations.all
        return released + written.map { $0.migration(in: dialect) }
    }
}
