/// The migrations written once for both dialects (``SchemaMigration``), after the ones each dialect keeps as released
/// (``SQLiteMigrations`` and ``PostgresMigrations``, versions 1–11): a new table or column goes here, never into both
/// of those.
enum SchemaMigrations {
    /// Oldest first, from version 12.
    static let written: [SchemaMigration] = []

    /// Every migration of `dialect`, oldest first.
    static func all(in dialect: SQLDialect) -> [Migration] {
        let released = dialect == .sqlite ? SQLiteMigrations.all : PostgresMigrations.all
        return released + written.map { $0.migration(in: dialect) }
    }
}
