import NIOConcurrencyHelpers
import SQLiteNIO

/// Runs the statements of the store's writing connection so that those of concurrent requests share a transaction, and
/// so one commit and one `fsync` (group commit), with `synchronous=FULL` kept: a statement's caller gets its rows only
/// once the transaction that ran it is durable, as it did when every statement committed alone.
///
/// Statements queue while the connection's thread is busy; the next batch takes everything queued, with no waiting
/// window, and runs on the thread in one go. One statement alone runs as before, in its own implicit transaction;
/// several run in one `BEGIN IMMEDIATE` … `COMMIT`, in the order they came. A caller's next statement waits for its
/// previous one, so a batch holds at most one statement of each request, and a request's statements keep their order
/// and each its own durability.
///
/// A failed statement fails only its caller: SQLite undoes that statement alone and the batch goes on. When the failure
/// took the whole transaction with it (a full disk, an I/O error), the statements before it fail too, none of them
/// having taken effect, and those after it go back to the front of the queue. A failed `BEGIN` or `COMMIT` fails every
/// statement of its batch, none of which took effect.
///
/// A statement may carry follow-ups (``query(_:_:followedBy:)``): more changes of the same unit and the security events
/// that record it, run in order only when the statement returned rows. They are one unit: they run inside a `SAVEPOINT`
/// of the batch's transaction, so a failure of any undoes all of them, and only them; the rest of the batch commits as
/// usual.
final class SQLiteGroupCommit: Sendable {
    /// A statement and its values.
    typealias Statement = (sql: String, binds: [SQLiteData])

    private struct Pending: Sendable {
        let sql: String
        let binds: [SQLiteData]
        /// Run after the statement, in its unit and in order, when the statement returned rows.
        let followUps: [Statement]
        let continuation: CheckedContinuation<Result<[SQLiteResultRow], StorageError>, Never>

        func finish(_ result: Result<[SQLiteResultRow], StorageError>) {
            continuation.resume(returning: result)
        }
    }

    private struct State {
        var queue: [Pending] = []
        var isDraining = false
    }

    private let connection: SQLiteWriteConnection
    private let state = NIOLockedValueBox(State())
    /// Called on the connection's thread before each batch is taken from the queue; a test blocks it to let
    /// statements gather.
    private let beforeBatch: @Sendable () -> Void
    private let groupCommits = NIOLockedValueBox(0)

    /// Runs the statements on `connection`.
    init(connection: SQLiteWriteConnection, beforeBatch: @escaping @Sendable () -> Void = {}) {
        self.connection = connection
        self.beforeBatch = beforeBatch
    }

    /// How many transactions of several statements have committed so far.
    var committedGroups: Int { groupCommits.withLockedValue { $0 } }

    /// How many statements wait for the next batch.
    var queuedCount: Int { state.withLockedValue { $0.queue.count } }

    /// The rows of `sql` with `binds`, once the transaction that ran it has committed.
    func query(_ sql: String, _ binds: [SQLiteData]) async throws(StorageError) -> [SQLiteResultRow] {
        try await query(sql, binds, followedBy: [])
    }

    /// The rows of `sql` with `binds`, once committed; `followUps` run after it, in order, when it returned rows, and
    /// all take effect together or not at all (a savepoint in the batch's transaction).
    func query(_ sql: String, _ binds: [SQLiteData], followedBy followUps: [Statement]) async throws(StorageError)
        -> [SQLiteResultRow]
    {
        try await StorageSpan.run(sql, system: "sqlite") { () throws(StorageError) in
            try await enqueue(sql, binds, followedBy: followUps)
        }
    }

    /// Queues `sql` (and `followUps`) for the next batch and waits until the batch has committed.
    private func enqueue(
        _ sql: String, _ binds: [SQLiteData], followedBy followUps: [Statement]
    ) async throws(StorageError) -> [SQLiteResultRow] {
        let result = await withCheckedContinuation { continuation in
            let startsDraining = state.withLockedValue { state in
                state.queue.append(
                    Pending(sql: sql, binds: binds, followUps: followUps, continuation: continuation))
                defer { state.isDraining = true }
                return !state.isDraining
            }
            if startsDraining { connection.submit { [self] statements in drain(statements) } }
        }
        return try result.get()
    }

    /// Runs batches until the queue is empty; on the connection's thread.
    private func drain(_ statements: SQLitePreparedStatements?) {
        while true {
            beforeBatch()
            let batch = state.withLockedValue { state in
                defer { state.queue = [] }
                if state.queue.isEmpty { state.isDraining = false }
                return state.queue
            }
            guard !batch.isEmpty else { return }
            guard let statements else {
                for pending in batch { pending.finish(.failure(.queryFailed("the store is closed"))) }
                continue
            }
            let rest = run(batch, with: statements)
            if !rest.isEmpty { state.withLockedValue { $0.queue.insert(contentsOf: rest, at: 0) } }
        }
    }

    /// Runs `batch` and answers its statements; returns those left for the next batch.
    private func run(_ batch: [Pending], with statements: SQLitePreparedStatements) -> ArraySlice<Pending> {
        guard batch.count > 1 || !batch[0].followUps.isEmpty else {
            batch[0].finish(statements.rows(batch[0].sql, batch[0].binds).mapError(\.storageError))
            return []
        }
        if case .failure(let failure) = statements.execute("BEGIN IMMEDIATE") {
            for pending in batch { pending.finish(.failure(failure.storageError)) }
            return []
        }
        var ran: [(Pending, [SQLiteResultRow])] = []
        for (index, pending) in batch.enumerated() {
            switch Self.runUnit(pending, with: statements) {
            case .success(let rows):
                ran.append((pending, rows))
            case .failure(let failure):
                pending.finish(.failure(failure.storageError))
                guard statements.isInTransaction else {
                    for (earlier, _) in ran { earlier.finish(.failure(failure.storageError)) }
                    return batch[(index + 1)...]
                }
            }
        }
        let committed = statements.execute("COMMIT").mapError(\.storageError)
        if case .failure = committed, statements.isInTransaction { _ = statements.execute("ROLLBACK") }
        for (pending, rows) in ran { pending.finish(committed.map { rows }) }
        if case .success = committed, batch.count > 1 { groupCommits.withLockedValue { $0 += 1 } }
        return []
    }

    /// Runs `pending`'s statement and, when it returned rows, its follow-ups, inside a savepoint that a failure of any
    /// rolls back; in a transaction.
    private static func runUnit(_ pending: Pending, with statements: SQLitePreparedStatements) -> Result<
        [SQLiteResultRow], SQLitePreparedStatements.Failure
    > {
        guard !pending.followUps.isEmpty else { return statements.rows(pending.sql, pending.binds) }
        if case .failure(let failure) = statements.execute("SAVEPOINT unit") { return .failure(failure) }
        let outcome = statements.rows(pending.sql, pending.binds).flatMap { rows in
            rows.isEmpty
                ? .success(rows)
                : pending.followUps.reduce(.success(rows)) { outcome, followUp in
                    outcome.flatMap { rows in statements.rows(followUp.sql, followUp.binds).map { _ in rows } }
                }
        }
        if case .failure = outcome, statements.isInTransaction { _ = statements.execute("ROLLBACK TO unit") }
        if statements.isInTransaction { _ = statements.execute("RELEASE unit") }
        return outcome
    }
}
