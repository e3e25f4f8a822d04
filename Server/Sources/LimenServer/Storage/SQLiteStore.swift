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
    /// Runs the hottest reads without the thread pool; `nil` for an in-memory database, which no second connection
    /// can open.
    private let reader: SQLiteReadConnection?
    private let logger: Logger

    init(
        connection: SQLiteConnection,
        connectionThread: NIOThreadPool? = nil,
        reader: SQLiteReadConnection? = nil,
        logger: Logger
    ) {
        self.connection = connection
        self.connectionThread = connectionThread
        self.reader = reader
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
            let reader = try SQLiteReadConnection.open(path: path)
            return SQLiteStore(connection: connection, connectionThread: thread, reader: reader, logger: logger)
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

    public func close() async {
        reader?.close()
        try? await connection.close()
        try? await connectionThread?.shutdownGracefully()
    }

    public func ping() async throws(StorageError) {
        _ = try await query("SELECT 1")
    }

    // MARK: Migrations

    public func migrate() async throws(StorageError) {
        try await migrate(SQLiteMigrations.all)
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
    /// How long a start waits for the write lock while migrating: another process starting on the same file holds it
    /// through each of its own migrations, and on a busy machine they take longer than ``busyTimeoutMilliseconds``.
    static let migrationBusyTimeoutMilliseconds = 60_000

    func migrate(_ migrations: [Migration]) async throws(StorageError) {
        _ = try await query("PRAGMA busy_timeout = \(Self.migrationBusyTimeoutMilliseconds)")
        do {
            try await apply(migrations)
        } catch {
            _ = try? await query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
            throw error
        }
        _ = try await query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
    }

    /// Applies each migration not yet applied, one `BEGIN IMMEDIATE` transaction each.
    private func apply(_ migrations: [Migration]) async throws(StorageError) {
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            guard try await schemaVersion() < migration.version else { continue }
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
                    _ = try await connection.query(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        [.integer(.init(migration.version)), .text(migration.name), Self.time(Date())]
                    )
                }
                _ = try await connection.query("COMMIT")
                logger.info("Applied schema migration", metadata: ["version": "\(migration.version)"])
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw .migrationFailed(version: migration.version, reason: "\(error)")
            }
        }
    }

    // MARK: Clients

    public func client(id: String) async throws(StorageError) -> ClientRecord? {
        let rows = try await query("SELECT * FROM clients WHERE id = ?", [.text(id)])
        return try rows.first.map(Self.client(from:))
    }

    public func clients() async throws(StorageError) -> [ClientRecord] {
        try await query("SELECT * FROM clients ORDER BY id").map(Self.client(from:))
    }

    @discardableResult
    public func insertClientIfAbsent(_ client: ClientRecord) async throws(StorageError) -> Bool {
        let rows = try await query(
            """
            INSERT INTO clients (id, name, kind, secret_hash, is_native, redirect_uris, post_logout_redirect_uris,
                grant_types, is_first_party, id_token_signed_response_alg, access_token_ttl, refresh_token_ttl,
                allows_no_pkce, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """,
            [
                .text(client.id), .text(client.name), .text(client.kind.rawValue), Self.blob(client.secretHash),
                .integer(client.isNative ? 1 : 0), try Self.json(client.redirectURIs),
                try Self.json(client.postLogoutRedirectURIs), try Self.json(client.grantTypes),
                .integer(client.isFirstParty ? 1 : 0), .text(client.idTokenSignedResponseAlg),
                Self.seconds(client.accessTokenLifetime), Self.seconds(client.refreshTokenLifetime),
                .integer(client.allowsNoPKCE ? 1 : 0), Self.time(client.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    @discardableResult
    public func deleteClient(id: String) async throws(StorageError) -> Bool {
        !(try await query("DELETE FROM clients WHERE id = ? RETURNING id", [.text(id)])).isEmpty
    }

    // MARK: Signing keys

    public func signingKeys() async throws(StorageError) -> [SigningKeyRecord] {
        try await query("SELECT * FROM signing_keys ORDER BY created_at, kid").map { row throws(StorageError) in
            SigningKeyRecord(
                kid: try Self.text(row, "kid"),
                algorithm: try Self.text(row, "algorithm"),
                encryptedPrivateKey: try Self.data(row, "encrypted_private_key"),
                createdAt: try Self.date(row, "created_at"),
                activatesAt: row.column("activates_at")?.integer.map { Date(timeIntervalSince1970: Double($0)) },
                retiredAt: row.column("retired_at")?.integer.map { Date(timeIntervalSince1970: Double($0)) }
            )
        }
    }

    public func insertSigningKey(_ key: SigningKeyRecord) async throws(StorageError) {
        try await query(
            "INSERT INTO signing_keys (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at) "
                + "VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(key.kid), .text(key.algorithm), Self.blob(key.encryptedPrivateKey), Self.time(key.createdAt),
                Self.time(key.activatesAt), key.retiredAt.map(Self.time) ?? .null,
            ]
        )
    }

    public func retireSigningKey(kid: String, at date: Date) async throws(StorageError) {
        try await query("UPDATE signing_keys SET retired_at = ? WHERE kid = ?", [Self.time(date), .text(kid)])
    }

    // MARK: Authorization codes

    public func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, subject, scope, nonce,
                code_challenge, auth_time, expires_at, browser_session_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                Self.blob(code.codeHash), .text(code.clientID), .text(code.redirectURI), .text(code.subject),
                .text(code.scope), code.nonce.map(SQLiteData.text) ?? .null,
                code.codeChallenge.map(SQLiteData.text) ?? .null, Self.time(code.authTime), Self.time(code.expiresAt),
                Self.blob(code.browserSessionHash),
            ]
        )
    }

    @discardableResult
    public func deleteExpiredAuthorizationCodes(before date: Date) async throws(StorageError) -> Int {
        try await query("DELETE FROM authorization_codes WHERE expires_at <= ? RETURNING 1", [Self.time(date)]).count
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

    /// The rows of a read-only `sql`: on the read connection when it can answer at once, else through the pool.
    func readRows(_ sql: String, _ binds: [SQLiteData]) async throws(StorageError) -> [SQLiteResultRow] {
        if let rows = try reader?.rows(sql, binds) { return rows }
        return try await query(sql, binds).map(SQLiteResultRow.init)
    }

    static func time(_ date: Date) -> SQLiteData {
        .integer(.init(date.timeIntervalSince1970.rounded(.down)))
    }

    /// A duration as whole seconds, `NULL` when absent.
    static func seconds(_ interval: TimeInterval?) -> SQLiteData {
        guard let interval else { return .null }
        return .integer(.init(interval.rounded(.down)))
    }

    static func blob(_ data: Data?) -> SQLiteData {
        guard let data else { return .null }
        return .blob(ByteBuffer(bytes: data))
    }

    static func json(_ strings: [String]) throws(StorageError) -> SQLiteData {
        do {
            return .text(String(decoding: try JSONEncoder().encode(strings), as: UTF8.self))
        } catch {
            throw .queryFailed("cannot encode \(strings)")
        }
    }

    static func text(_ row: some SQLiteColumns, _ column: String) throws(StorageError) -> String {
        guard let value = row.column(column)?.string else { throw .corruptRow("\(column) is missing") }
        return value
    }

    static func data(_ row: some SQLiteColumns, _ column: String) throws(StorageError) -> Data {
        guard var buffer = row.column(column)?.blob, let bytes = buffer.readBytes(length: buffer.readableBytes) else {
            throw .corruptRow("\(column) is missing")
        }
        return Data(bytes)
    }

    /// A blob that may be absent.
    static func optionalData(_ row: some SQLiteColumns, _ column: String) throws(StorageError) -> Data? {
        row.column(column)?.blob == nil ? nil : try data(row, column)
    }

    static func date(_ row: some SQLiteColumns, _ column: String) throws(StorageError) -> Date {
        guard let seconds = row.column(column)?.integer else { throw .corruptRow("\(column) is missing") }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    static func strings(_ row: some SQLiteColumns, _ column: String) throws(StorageError) -> [String] {
        let text = try text(row, column)
        guard let strings = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw .corruptRow("\(column) is not a JSON array of strings")
        }
        return strings
    }

    private static func client(from row: SQLiteRow) throws(StorageError) -> ClientRecord {
        guard let kind = ClientRecord.Kind(rawValue: try text(row, "kind")) else {
            throw .corruptRow("clients.kind is not public or confidential")
        }
        let secretHash: Data? = row.column("secret_hash")?.blob == nil ? nil : try data(row, "secret_hash")
        return ClientRecord(
            id: try text(row, "id"),
            name: try text(row, "name"),
            kind: kind,
            secretHash: secretHash,
            isNative: row.column("is_native")?.bool ?? false,
            redirectURIs: try strings(row, "redirect_uris"),
            postLogoutRedirectURIs: try strings(row, "post_logout_redirect_uris"),
            grantTypes: try strings(row, "grant_types"),
            isFirstParty: row.column("is_first_party")?.bool ?? false,
            idTokenSignedResponseAlg: try text(row, "id_token_signed_response_alg"),
            accessTokenLifetime: row.column("access_token_ttl")?.integer.map(TimeInterval.init),
            refreshTokenLifetime: row.column("refresh_token_ttl")?.integer.map(TimeInterval.init),
            allowsNoPKCE: row.column("allows_no_pkce")?.bool ?? false,
            createdAt: try date(row, "created_at")
        )
    }
}
