import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The store for many stateless nodes: PostgreSQL through postgres-nio's connections, kept in a
/// ``PostgresConnectionPool``.
///
/// ```swift
/// let store = try PostgresStore.connect(url: "postgres://limen:secret@127.0.0.1:5432/limen")
/// try await store.migrate()
/// await store.close()
/// ```
public final class PostgresStore: Store {
    /// The connections (internal so that extensions can run transactions).
    let client: PostgresConnectionPool
    let logger: Logger

    private init(client: PostgresConnectionPool, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The connections a store keeps open unless told otherwise (postgres-nio's own default maximum).
    public static let defaultMaximumConnections = 20
    /// The pool sizes ``connect(url:maximumConnections:logger:)`` accepts.
    public static let maximumConnectionsRange = 1...1000

    /// Connects to the database a `postgres://user:password@host:port/database?sslmode=…` URL names (`sslmode`:
    /// `disable`, `prefer` (default) or `require`), with at most `maximumConnections` connections open.
    public static func connect(
        url: String,
        maximumConnections: Int = defaultMaximumConnections,
        logger: Logger = Logger(label: "limen.storage")
    ) throws(StorageError) -> PostgresStore {
        guard maximumConnectionsRange.contains(maximumConnections) else {
            throw .openFailed("a pool of \(maximumConnections) connections is outside \(maximumConnectionsRange)")
        }
        return try connect(url: url, pool: PostgresConnectionPool.Settings(size: maximumConnections), logger: logger)
    }

    /// ``connect(url:maximumConnections:logger:)`` with the pool's every setting (tests shorten its retry delay).
    static func connect(
        url: String,
        pool settings: PostgresConnectionPool.Settings,
        logger: Logger
    ) throws(StorageError) -> PostgresStore {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty, let username = components.user
        else {
            throw .openFailed("expected postgres://user:password@host:port/database, got a malformed URL")
        }
        let database = String(components.path.drop { $0 == "/" })
        let tls: PostgresConnection.Configuration.TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(try tlsContext())
        case "require": tls = .require(try tlsContext())
        case let mode: throw .openFailed("sslmode \(mode) is not one of disable, prefer, require")
        }
        let configuration = PostgresConnection.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: username,
            password: components.password,
            database: database.isEmpty ? username : database,
            tls: tls
        )
        let pool = PostgresConnectionPool(configuration: configuration, settings: settings, logger: logger)
        return PostgresStore(client: pool, logger: logger)
    }

    /// The TLS context of a connection that verifies the server's certificate against the system's roots.
    private static func tlsContext() throws(StorageError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw .openFailed("cannot set up TLS: \(error)")
        }
    }

    /// Closes the connections; a query after it fails as ``StorageError/unavailable(_:)``.
    public func close() async {
        await client.close()
    }

    /// Nothing to change: PostgreSQL's starts take turns on an advisory lock, with no timeout of their own.
    public func startupCompleted() async throws(StorageError) {}

    public func ping() async throws(StorageError) {
        try await rows("SELECT 1")
    }

    // MARK: Migrations

    public func migrate() async throws(StorageError) {
        try await migrate(SchemaMigrations.all(in: .postgres))
    }

    /// Applies each migration not yet applied, one transaction each, under an advisory lock so that nodes starting
    /// together apply a step once.
    func migrate(_ migrations: [Migration]) async throws(StorageError) {
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            do {
                let applied = try await client.withTransaction { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(7470356)", logger: logger)
                    try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS schema_migrations
                            (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                        """,
                        logger: logger
                    )
                    let done = try await connection.query(
                        "SELECT 1 FROM schema_migrations WHERE version = \(migration.version)", logger: logger
                    ).collect()
                    guard done.isEmpty else { return false }
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        """
                        INSERT INTO schema_migrations (version, name, applied_at)
                        VALUES (\(migration.version), \(migration.name), \(Int64(Date().timeIntervalSince1970)))
                        """,
                        logger: logger
                    )
                    return true
                }
                if applied { logger.info("Applied schema migration", metadata: ["version": "\(migration.version)"]) }
            } catch {
                throw .migrationFailed(version: migration.version, reason: String(reflecting: error))
            }
        }
    }

    /// The versions recorded in `schema_migrations`, in order.
    func appliedMigrationVersions() async throws(StorageError) -> [Int] {
        try await execute("SELECT version FROM schema_migrations ORDER BY version").map { row throws(StorageError) in
            try row.integer("version")
        }
    }

    // MARK: Plumbing

    /// Runs `query` and returns every row.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws(StorageError) -> [PostgresRandomAccessRow] {
        try await StorageSpan.run(query.sql, system: "postgresql") { () throws(StorageError) in
            try await client.withConnection { connection in
                try await connection.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
            }
        }
    }

    /// Runs a prepared `statement` and returns every row.
    func rows(_ statement: some PostgresHotStatement) async throws(StorageError) -> [PostgresRandomAccessRow] {
        try await StorageSpan.run(type(of: statement).sql, system: "postgresql") { () throws(StorageError) in
            try await client.withConnection { connection in
                var rows: [PostgresRandomAccessRow] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
        }
    }
}
