import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The PostgreSQL store's connections: at most ``Settings/size`` open, opened when needed and then kept, with no timer
/// of their own; failing fast while the database cannot be reached, and back by themselves once it can.
///
/// Limen keeps this small pool instead of postgres-nio's `PostgresClient` for two faults of the latter (1.33.2): when
/// the database restarts, its pool gives up on all but one of the connections it was opening and goes back to work
/// below its minimum, and the next request that finds no idle connection stops the process
/// (`PoolStateMachine+ConnectionGroup.swift:163`, a precondition that the pool holds its minimum); and each handed-back
/// connection above that minimum starts a timer, a cancelled `Task.sleep` that stays allocated until its deadline
/// (swiftlang/swift#89075), so keeping the minimum at the maximum was the only way to bound memory under load.
///
/// - A lease takes an idle connection, else opens one while fewer than `size` are open, else waits for one handed
///   back, at most ``Settings/leaseTimeout``.
/// - A connection found closed (the database restarted, the network dropped) is dropped; a query that failed because
///   its connection closed throws ``StorageError/unavailable(_:)``, as does a connection that cannot be opened.
/// - A failed connect marks the database unreachable for ``Settings/retryDelay``: meanwhile a lease that would need a
///   new connection fails at once (the server answers `503`), and so do the leases waiting. The first lease after the
///   delay tries again, so the pool is back within the delay and one connect of the database's return.
final class PostgresConnectionPool: Sendable {
    /// How many connections, and how long to wait for them.
    struct Settings: Sendable {
        /// The most connections open at once.
        var size: Int
        /// How long opening a connection may take before it counts as failed (postgres-nio's own default: a database
        /// slow to answer under load is not taken for one that is away).
        var connectTimeout: TimeAmount = .seconds(10)
        /// How long a lease waits for a connection handed back before it fails as unavailable.
        var leaseTimeout: TimeAmount = .seconds(5)
        /// How long after a failed connect leases needing a new connection fail without trying.
        var retryDelay: TimeAmount = .milliseconds(250)
    }

    /// What a lease is given: a connection, leave to open one, or its failure.
    private enum Grant: Sendable {
        case connection(PostgresConnection)
        case open
        case failure(StorageError)
    }

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Grant, Never>
        var timeout: Scheduled<Void>?
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Connections idle, leased or being opened.
        var open = 0
        var waiters: [Waiter] = []
        var unreachableUntil: NIODeadline?
        var isClosed = false
        var nextID = 0

        /// What a lease gets without waiting, or `nil` when it must wait.
        mutating func grant(size: Int, now: NIODeadline) -> Grant? {
            if isClosed { return .failure(.unavailable("the store is closed")) }
            if let connection = idle.popLast() { return .connection(connection) }
            guard open < size else { return nil }
            if let until = unreachableUntil, now < until { return .failure(PostgresConnectionPool.unreachable) }
            open += 1
            return .open
        }

        /// Takes the waiter `id` out of the queue, if it is still there.
        mutating func removeWaiter(_ id: Int) -> Waiter? {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }

    private static let unreachable = StorageError.unavailable("the database cannot be reached")

    private let configuration: PostgresConnection.Configuration
    private let settings: Settings
    private let eventLoops: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex(State())

    /// A pool of connections made with `configuration` (its connect timeout replaced by the settings').
    init(
        configuration: PostgresConnection.Configuration,
        settings: Settings,
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) {
        var configuration = configuration
        configuration.options.connectTimeout = settings.connectTimeout
        self.configuration = configuration
        self.settings = settings
        self.eventLoops = eventLoops
        self.logger = logger
    }

    /// Runs `body` on a leased connection, handed back afterwards (dropped if it closed).
    ///
    /// - Throws: ``StorageError/unavailable(_:)`` when no connection can be had or the one used closed; the
    ///   ``StorageError`` `body` throws; any other failure of `body` as ``StorageError/queryFailed(_:)``.
    func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws(StorageError) -> Result {
        let connection = try await lease()
        defer { handBack(connection) }
        do {
            return try await body(connection)
        } catch {
            throw Self.storageError(error, on: connection)
        }
    }

    /// Runs `body` in a transaction on a leased connection (``withConnection(_:)``).
    func withTransaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws(StorageError) -> Result {
        try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// A pool dropped without ``close()`` (a store whose set-up failed) still closes its idle connections rather than
    /// leaving their sockets open; each is kept until its close completes, as postgres-nio requires of a connection.
    deinit {
        for connection in state.withLock({ $0.idle }) {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    /// Closes the idle connections and fails the waiting leases; a leased connection closes when handed back.
    func close() async {
        let (idle, waiters) = state.withLock { state in
            state.isClosed = true
            defer { (state.idle, state.waiters) = ([], []) }
            state.open -= state.idle.count
            return (state.idle, state.waiters)
        }
        for waiter in waiters { Self.resume(waiter, with: .failure(.unavailable("the store is closed"))) }
        for connection in idle { try? await connection.close() }
    }

    // MARK: Leases

    private func lease() async throws(StorageError) -> PostgresConnection {
        while true {
            switch await grant() {
            case .connection(let connection) where connection.isClosed:
                // Closed while idle (the database restarted): its place is free again.
                dropClosed()
            case .connection(let connection): return connection
            case .open: return try await openConnection()
            case .failure(let error): throw error
            }
        }
    }

    /// A grant at once, or once a connection or a place is handed over, or the lease timed out. An idle connection
    /// is taken without suspending (every query's path while the pool is warm).
    private func grant() async -> Grant {
        if let immediate = state.withLock({ $0.grant(size: settings.size, now: .now()) }) { return immediate }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Grant, Never>) in
            let now = NIODeadline.now()
            let immediate: Grant? = state.withLock { state in
                if let grant = state.grant(size: settings.size, now: now) { return grant }
                let id = state.nextID
                state.nextID += 1
                var waiter = Waiter(id: id, continuation: continuation)
                waiter.timeout = eventLoops.any().scheduleTask(in: settings.leaseTimeout) { [weak self] in
                    self?.expire(id)
                }
                state.waiters.append(waiter)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ id: Int) {
        guard let waiter = state.withLock({ $0.removeWaiter(id) }) else { return }
        waiter.continuation.resume(returning: .failure(.unavailable("no database connection became free in time")))
    }

    private func openConnection() async throws(StorageError) -> PostgresConnection {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        do {
            let connection = try await PostgresConnection.connect(
                on: eventLoops.any(), configuration: configuration, id: id, logger: logger)
            state.withLock { $0.unreachableUntil = nil }
            return connection
        } catch {
            let waiters = state.withLock { state in
                state.open -= 1
                state.unreachableUntil = .now() + settings.retryDelay
                defer { state.waiters = [] }
                return state.waiters
            }
            logger.warning("Cannot connect to the database", metadata: ["error": "\(String(reflecting: error))"])
            for waiter in waiters { Self.resume(waiter, with: .failure(Self.unreachable)) }
            throw Self.unreachable
        }
    }

    /// Gives `connection` to the first waiting lease, else keeps it idle; a closed one frees its place instead.
    private func handBack(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return dropClosed() }
        let (waiter, closeIt) = state.withLock { state -> (Waiter?, Bool) in
            if state.isClosed {
                state.open -= 1
                return (nil, true)
            }
            guard !state.waiters.isEmpty else {
                state.idle.append(connection)
                return (nil, false)
            }
            return (state.waiters.removeFirst(), false)
        }
        if let waiter { Self.resume(waiter, with: .connection(connection)) }
        if closeIt {
            let _: EventLoopFuture<Void> = connection.close()
        }
    }

    /// Forgets a connection that closed; its place goes to the first waiting lease, which opens a new one.
    private func dropClosed() {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.isClosed, !state.waiters.isEmpty else {
                state.open -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        if let waiter { Self.resume(waiter, with: .open) }
    }

    private static func resume(_ waiter: Waiter, with grant: Grant) {
        waiter.timeout?.cancel()
        waiter.continuation.resume(returning: grant)
    }

    /// `error` of a query on `connection`: a ``StorageError`` as it is (also from inside a transaction), unavailable
    /// when the connection is gone, else a failed query.
    private static func storageError(_ error: any Error, on connection: PostgresConnection) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.beginError {
            return storageError(cause, on: connection)
        }
        let lostConnection: Set<PSQLError.Code> = [
            .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown,
        ]
        if connection.isClosed || (error as? PSQLError).map({ lostConnection.contains($0.code) }) == true {
            return .unavailable("the connection to the database closed")
        }
        // PostgreSQL stopping or starting ends a query with "operator intervention" (SQLSTATE class 57) before the
        // connection closes: admin_shutdown, crash_shutdown, cannot_connect_now.
        if let state = (error as? PSQLError)?.serverInfo?[.sqlState], ["57P01", "57P02", "57P03"].contains(state) {
            return .unavailable("the database is shutting down or starting (\(state))")
        }
        return .queryFailed(String(reflecting: error))
    }
}
