import Foundation
import Logging
import ServiceLifecycle

/// Deletes expired rows (authorization codes, pending authorization requests, browser sessions; device codes and
/// refresh families as they arrive) at start and then every ``interval``, until the service group shuts down.
public struct ExpirySweeper: Service {
    /// The time between two sweeps.
    public let interval: Duration
    private let store: any Store
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// Creates a sweeper; time is injected so tests need not wait.
    public init(
        store: any Store,
        interval: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "limen.sweeper")
    ) {
        self.store = store
        self.interval = interval
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        await PeriodicTask.run(every: interval, on: clock, immediately: true) { await sweepOnce() }
    }

    /// One sweep; returns how many rows were removed. A failing store is logged and retried next time.
    @discardableResult
    public func sweepOnce() async -> Int {
        let now = now()
        let codes = await sweep("authorization codes") { () async throws(StorageError) in
            try await store.deleteExpiredAuthorizationCodes(before: now)
        }
        let requests = await sweep("pending authorization requests") { () async throws(StorageError) in
            try await store.deleteExpiredPendingAuthorizations(before: now)
        }
        let sessions = await sweep("browser sessions") { () async throws(StorageError) in
            try await store.deleteExpiredBrowserSessions(before: now)
        }
        return codes + requests + sessions
    }

    /// Runs one table's delete; a failure is logged and counts as nothing removed.
    private func sweep(_ table: String, _ delete: () async throws(StorageError) -> Int) async -> Int {
        do {
            let removed = try await delete()
            if removed > 0 { logger.debug("Swept expired \(table)", metadata: ["count": "\(removed)"]) }
            return removed
        } catch {
            logger.warning("Expiry sweep failed", metadata: ["table": "\(table)", "error": "\(error.code)"])
            return 0
        }
    }
}
