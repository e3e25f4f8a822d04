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
    private let connection: SQLiteConnection
    /// The one thread that makes this connection's SQLite calls, owned by the store so that a statement waiting for
    /// another connection's lock (up to the busy timeout) holds up only this connection, never the shared
    /// `NIOThreadPool.singleton` that password hashing and every other store use. `nil` when the connection was
    /// opened on a pool the store does not own.
    private let connectionThread: NIOThreadPool?
    /// Run the hottest reads without the thread pool; `nil` for an in-memory database, which no second connection can
    /// open.
    private let readers: SQLiteReadConnections?
    private let logger: Logger

    init(
        connection: SQLiteConnection,
        connectionThread: NIOThreadPool? = nil,
        readers: SQLiteReadConnections? = nil,
        logger: Logger
    ) {
        self.connection = connection
        self.connectionThread = connectionThread
        self.readers = readers
        self.logger = logger
    }

    /// Opens (creating if needed) the database file at `path`.
    public static func open(
        path: String,
        logger: Logger = Logger(label: "limen.storage")
    ) async throws(StorageError) -> SQLiteStore {
        let thread = startConnectionThread()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: thread, logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            try? await thread.shutdownGracefully()
            throw .openFailed("\(path): \(error)")
        }
        do {
            // The busy timeout first: switching to WAL waits for a process that has the new file locked.
            _ = try await connection.query("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA foreign_keys = ON")
            let readers = try SQLiteReadConnections.open(path: path)
            return SQLiteStore(connection: connection, connectionThread: thread, readers: readers, logger: logger)
        } catch {
            try? await connection.close()
            try? await thread.shutdownGracefully()
            throw error as? StorageError ?? .openFailed("\(path): \(error)")
        }
    }

    /// An in-memory database, for tests.
    public static func inMemory(logger: Logger = Logger(label: "limen.storage")) async throws(StorageError)
        -> SQLiteStore
    {
        let thread = startConnectionThread()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .memory, threadPool: thread, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            _ = try await connection.query("PRAGMA foreign_keys = ON")
        } catch {
            try? await thread.shutdownGracefully()
            throw .openFailed("memory: \(error)")
        }
        return SQLiteStore(connection: connection, connectionThread: thread, logger: logger)
    }

    /// A started pool of one thread, for one connection.
    private static func startConnectionThread() -> NIOThreadPool {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        return thread
    }

    /// Returns at once: the connection is open from ``open(path:)`` to ``close()``.
    public func run() async {}

    public func close() async {
        readers?.close()
        // The future's form: the async one gives up unrun in a cancelled task (a service group cancelled by a failed
        // start), which would leave the connection open.
        try? await connection.close().get()
        try? await connectionThread?.shutdownGracefully()
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
        do {
            // IMMEDIATE takes the write lock first, so two processes starting together apply a step once.
            _ = try await connection.query("BEGIN IMMEDIATE")
            let applied = try await connection.query(
                "SELECT 1 FROM schema_migrations WHERE version = ?",
                [.integer(.init(migration.version))]
            )
            if applied.isEmpty {
                for statement in migration.statements {
                    _ = try await connection.query(statement)
                }
                if migration.needsForeignKeysOff {
                    let broken = try await connection.query("PRAGMA foreign_key_check")
                    guard broken.isEmpty else {
                        throw StorageError.migrationFailed(
                            version: migration.version, reason: "\(broken.count) rows refer to rows that are gone")
                    }
                }
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [.integer(.init(migration.version)), .text(migration.name), Self.sqliteData(Date().sqlValue)]
                )
            }
            _ = try await connection.query("COMMIT")
            logger.info("Applied schema migration", metadata: ["version": "\(migration.version)"])
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw .migrationFailed(version: migration.version, reason: "\(error)")
        }
    }

    // MARK: Plumbing

    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws(StorageError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw .queryFailed("\(error)")
        }
    }

    /// The rows of a read-only `sql`: on an idle read connection when one can answer at once, else through the pool.
    func readRows(_ sql: String, _ binds: [SQLiteData]) async throws(StorageError) -> [SQLiteResultRow] {
        if let rows = try readers?.rows(sql, binds) { return rows }
        return try await query(sql, binds).map(SQLiteResultRow.init)
    }
}
