import Foundation
import Logging
import NIOCore
import SQLiteNIO

/// The embedded store: one SQLite file (sqlite-nio bundles its own SQLite), in WAL mode.
///
/// ```swift
/// let store = try await SQLiteStore.open(path: "limen-data/limen.sqlite")
/// try await store.migrate()
/// ```
public final class SQLiteStore: Store {
    /// The connection that writes, on a thread of its own.
    private let connection: SQLiteWriteConnection
    /// Runs every statement but the migrations' on `connection`, those of concurrent requests in shared transactions.
    private let writer: SQLiteGroupCommit
    /// Run the hottest reads without the connection's thread; `nil` for an in-memory database, which no second
    /// connection can open.
    private let readers: SQLiteReadConnections?
    private let logger: Logger

    init(connection: SQLiteWriteConnection, readers: SQLiteReadConnections? = nil, logger: Logger) {
        self.connection = connection
        writer = SQLiteGroupCommit(connection: connection)
        self.readers = readers
        self.logger = logger
    }

    /// Opens (creating if needed) the database file at `path`.
    public static func open(
        path: String,
        logger: Logger = Logger(label: "limen.storage")
    ) async throws(StorageError) -> SQLiteStore {
        let warning = SQLiteDiskFullWarning(logger: logger)
        let connection = try await SQLiteWriteConnection.open(path: path) { warning.diskIsFull(path: $0) }
        do {
            // The busy timeout first: switching to WAL waits for a process that has the new file locked.
            try await connection.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
            try await connection.execute("PRAGMA journal_mode = WAL")
            try await connection.execute("PRAGMA foreign_keys = ON")
            let readers = try SQLiteReadConnections.open(path: path)
            return SQLiteStore(connection: connection, readers: readers, logger: logger)
        } catch {
            await connection.close()
            throw error
        }
    }

    /// An in-memory database, for tests.
    public static func inMemory(logger: Logger = Logger(label: "limen.storage")) async throws(StorageError)
        -> SQLiteStore
    {
        let connection = try await SQLiteWriteConnection.open(path: ":memory:")
        do {
            try await connection.execute("PRAGMA foreign_keys = ON")
        } catch {
            await connection.close()
            throw error
        }
        return SQLiteStore(connection: connection, logger: logger)
    }

    public func close() async {
        readers?.close()
        await connection.close()
    }

    public func ping() async throws(StorageError) {
        _ = try await query("SELECT 1")
    }

    // MARK: Migrations

    public func migrate() async throws(StorageError) {
        try await migrate(SchemaMigrations.all(in: .sqlite))
    }

    /// The highest applied migration version, 0 when none.
    func schemaVersion() async throws(StorageError) -> Int {
        try await query(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
                + "(version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
        )
        let rows = try await query("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations")
        return rows.first?.column("version")?.integer.map { Int($0) } ?? 0
    }

    /// The versions recorded in `schema_migrations`, in order.
    func appliedMigrationVersions() async throws(StorageError) -> [Int] {
        _ = try await schemaVersion()
        return try await query("SELECT version FROM schema_migrations ORDER BY version").compactMap {
            $0.column("version")?.integer.map { Int($0) }
        }
    }

    /// How long a statement waits for another process's write lock.
    static let busyTimeoutMilliseconds = 5000
    /// How long a start waits for the write lock while migrating and seeding, until ``startupCompleted()``: another
    /// process starting on the same file holds it through each of its own migrations and its key set, and on a busy
    /// machine they take longer than ``busyTimeoutMilliseconds``. (Administration commands keep it: they may wait for
    /// a running server's writes.)
    static let migrationBusyTimeoutMilliseconds = 60_000

    func migrate(_ migrations: [Migration]) async throws(StorageError) {
        _ = try await query("PRAGMA busy_timeout = \(Self.migrationBusyTimeoutMilliseconds)")
        do {
            try await apply(migrations)
        } catch {
            _ = try? await query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
            throw error
        }
    }

    public func startupCompleted() async throws(StorageError) {
        _ = try await query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
    }

    /// Applies each migration not yet applied, one `BEGIN IMMEDIATE` transaction each.
    private func apply(_ migrations: [Migration]) async throws(StorageError) {
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            guard try await schemaVersion() < migration.version else { continue }
            guard migration.needsForeignKeysOff else {
                try await applyOne(migration)
                continue
            }
            // The pragma takes effect only outside a transaction; it is on again however the step ends.
            _ = try await query("PRAGMA foreign_keys = OFF")
            do {
                try await applyOne(migration)
            } catch {
                _ = try? await query("PRAGMA foreign_keys = ON")
                throw error
            }
            _ = try await query("PRAGMA foreign_keys = ON")
        }
    }

    /// Applies `migration` in one transaction, unless another process applied it first.
    private func applyOne(_ migration: Migration) async throws(StorageError) {
        let appliedAt = Self.sqliteData(Date().sqlValue)
        let outcome: Result<Void, StorageError> = await connection.run { statements in
            guard let statements else { return .failure(.queryFailed("the store is closed")) }
            let applied = Self.applyOnThread(migration, appliedAt: appliedAt, with: statements)
            if case .failure = applied, statements.isInTransaction { _ = statements.execute("ROLLBACK") }
            return applied.mapError { .migrationFailed(version: migration.version, reason: $0.message) }
        }
        try outcome.get()
        logger.info("Applied schema migration", metadata: ["version": "\(migration.version)"])
    }

    /// Applies `migration` on the connection's thread: `BEGIN IMMEDIATE` takes the write lock first, so two processes
    /// starting together apply a step once. On failure the caller rolls back.
    private static func applyOnThread(
        _ migration: Migration, appliedAt: SQLiteData, with statements: SQLitePreparedStatements
    ) -> Result<Void, SQLitePreparedStatements.Failure> {
        if case .failure(let failure) = statements.execute("BEGIN IMMEDIATE") { return .failure(failure) }
        let version = SQLiteData.integer(migration.version)
        switch statements.rows("SELECT 1 FROM schema_migrations WHERE version = ?", [version]) {
        case .failure(let failure): return .failure(failure)
        case .success(let rows) where !rows.isEmpty: break
        case .success:
            for statement in migration.statements {
                if case .failure(let failure) = statements.execute(statement) { return .failure(failure) }
            }
            if migration.needsForeignKeysOff {
                switch statements.rows("PRAGMA foreign_key_check", []) {
                case .failure(let failure): return .failure(failure)
                case .success(let broken) where !broken.isEmpty:
                    return .failure(.failed("\(broken.count) rows refer to rows that are gone"))
                case .success: break
                }
            }
            let record = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"
            if case .failure(let failure) = statements.rows(record, [version, .text(migration.name), appliedAt]) {
                return .failure(failure)
            }
        }
        return statements.execute("COMMIT")
    }

    // MARK: Plumbing

    /// The rows of `sql`, once committed (``SQLiteGroupCommit``). Until requests are served (opening, migrating) one
    /// statement runs at a time, each alone in its transaction, so pragmas take effect as written.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws(StorageError) -> [SQLiteResultRow] {
        try await writer.query(sql, binds)
    }

    /// The rows of `sql`, with `followUps` run after it when it returned rows, all as one unit (``SQLiteGroupCommit``).
    func query(_ sql: String, _ binds: [SQLiteData], followedBy followUps: [SQLiteGroupCommit.Statement])
        async throws(StorageError) -> [SQLiteResultRow]
    {
        try await writer.query(sql, binds, followedBy: followUps)
    }

    /// The rows of a read-only `sql`: on an idle read connection when one can answer at once, else on the writing
    /// connection.
    func readRows(_ sql: String, _ binds: [SQLiteData]) async throws(StorageError) -> [SQLiteResultRow] {
        if let readers {
            let read = { () throws(StorageError) in try readers.rows(sql, binds) }
            if let rows = try await StorageSpan.run(sql, system: "sqlite", read) { return rows }
        }
        return try await query(sql, binds)
    }
}
