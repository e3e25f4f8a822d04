import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The store for many stateless nodes: PostgreSQL through postgres-nio's connection pool.
///
/// ```swift
/// let store = try PostgresStore.connect(url: "postgres://limen:secret@127.0.0.1:5432/limen")
/// try await store.running {   // or the store's run() as a service in a ServiceGroup
///     try await store.migrate()
/// }
/// ```
public final class PostgresStore: Store {
    /// The connection pool (internal so that extensions can run transactions); ``run()`` runs it.
    let client: PostgresClient
    let logger: Logger
    /// Ends when ``close()`` is called, which ends ``run()``.
    private let closing: AsyncStream<Void>
    private let closed: AsyncStream<Void>.Continuation

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        (closing, closed) = AsyncStream.makeStream()
    }

    /// The connections a store keeps open unless told otherwise (postgres-nio's own default maximum).
    public static let defaultMaximumConnections = 20
    /// The pool sizes ``connect(url:maximumConnections:logger:)`` accepts.
    public static let maximumConnectionsRange = 1...1000

    /// Connects to the database a `postgres://user:password@host:port/database?sslmode=…` URL names (`sslmode`:
    /// `disable`, `prefer` (default) or `require`), keeping `maximumConnections` connections open (never more; see
    /// ``parkWithoutTimers(_:)``).

    public static func connect(
        url: String,
        maximumConnections: Int = defaultMaximumConnections,
        logger: Logger = Logger(label: "limen.storage")
    ) throws(StorageError) -> PostgresStore {
        guard maximumConnectionsRange.contains(maximumConnections) else {
            throw .openFailed("a pool of \(maximumConnections) connections is outside \(maximumConnectionsRange)")
        }
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty, let username = components.user
        else {
            throw .openFailed("expected postgres://user:password@host:port/database, got a malformed URL")
        }
        let database = String(components.path.drop { $0 == "/" })
        let tls: PostgresClient.Configuration.TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        case let mode: throw .openFailed("sslmode \(mode) is not one of disable, prefer, require")
        }
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: username,
            password: components.password,
            database: database.isEmpty ? username : database,
            tls: tls
        )
        configuration.options.maximumConnections = maximumConnections
        Self.parkWithoutTimers(&configuration.options)
        return PostgresStore(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger)
    }

    /// Keeps every connection open and unpinged while idle, so that handing a connection back to the pool starts no
    /// timer. postgres-nio 1.33 otherwise starts a keep-alive timer (30 s) and, above `minimumConnections`, an
    /// idle-timeout timer (60 s) each time a query hands its connection back, and cancels them at the next lease; but a
    /// cancelled `Task.sleep` stays allocated until the deadline it was set for (Swift 6.3; swiftlang/swift#89075).
    /// Under refresh load that held ≈ 10 KB per refresh (≈ 7 queries) for 30–60 s: the server grew from 50 MB to
    /// 440 MB. The price: the pool opens its `maximumConnections` at start and does not probe idle ones; a connection
    /// the network dropped fails one query and is replaced.
    static func parkWithoutTimers(_ options: inout PostgresClient.Configuration.Options) {
        options.minimumConnections = options.maximumConnections
        options.keepAliveBehavior = nil
    }

    /// Runs the connection pool until the task is cancelled or shut down gracefully, or the store is closed; call it
    /// once.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            group.addTask { for await _ in self.closing {} }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends ``run()``, which closes the pool's connections.
    public func close() async {
        closed.finish()
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
                let applied = try await client.withTransaction(logger: logger) { connection in
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
        do {
            return try await client.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
        } catch {
            throw .queryFailed(String(reflecting: error))
        }
    }

    /// Runs a prepared `statement` and returns every row.
    func rows(_ statement: some PostgresHotStatement) async throws(StorageError) -> [PostgresRandomAccessRow] {
        do {
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await client.execute(statement, logger: logger) { rows.append(row) }
            return rows
        } catch {
            throw .queryFailed(String(reflecting: error))
        }
    }
}
