/// A ``Store`` over SQL: its tables are written once, as ``SQLQuery``s and ``SQLRow`` decoders in extensions of this
/// protocol, and each dialect's store supplies only how a statement runs. A dialect may still answer a method its own
/// way where its engine allows something better (PostgreSQL's one-statement refresh rotation, a prepared hot read).
protocol SQLStore: Store {
    /// The rows this store's statements return.
    associatedtype Row: SQLRow

    /// The SQL the store's database speaks.
    var dialect: SQLDialect { get }

    /// Runs `query` and returns every row.
    @discardableResult
    func execute(_ query: SQLQuery) async throws(StorageError) -> [Row]

    /// Runs the change `query` (a statement with `RETURNING`, or a `SELECT` of what must exist) and, when it returned
    /// rows, the further changes `followUps` makes and the insert of `events`, as one unit: all take effect or none
    /// (SQLite: a savepoint in the group commit's transaction; PostgreSQL: one statement). Each follow-up puts the
    /// condition it is given (`whenChanged`, true exactly when the change returned rows) in its `WHERE`. Without
    /// follow-ups or events, the same as ``execute(_:)``.
    @discardableResult
    func execute(
        _ query: SQLQuery, followedBy followUps: (_ whenChanged: SQLQuery) -> [SQLQuery],
        recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> [Row]

    /// Runs the read-only `query` on the store's fastest path for reads (SQLite's read connection).
    func read(_ query: SQLQuery) async throws(StorageError) -> [Row]
}

extension SQLStore {
    /// Runs the change `query` and, when it returned rows, inserts `events` with it, as one unit
    /// (``execute(_:followedBy:recording:)`` without follow-ups).
    @discardableResult
    func execute(_ query: SQLQuery, recording events: [SecurityEventRecord]) async throws(StorageError) -> [Row] {
        try await execute(query, followedBy: { _ in [] }, recording: events)
    }

    func read(_ query: SQLQuery) async throws(StorageError) -> [Row] {
        try await execute(query)
    }
}
