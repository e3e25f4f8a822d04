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
        let store = store
        let sweeps: [(table: String, delete: @Sendable () async throws(StorageError) -> Int)] = [
            ("authorization codes", { () async throws(StorageError) in
                try await store.deleteExpiredAuthorizationCodes(before: now)
            }),
            ("pending authorization requests", { () async throws(StorageError) in
                try await store.deleteExpiredPendingAuthorizations(before: now)
            }),
            ("browser sessions", { () async throws(StorageError) in
                try await store.deleteExpiredBrowserSessions(before: now)
            }),
        ]
        var total = 0
        for sweep in sweeps {
            do {
                let removed = try await sweep.delete()
                if removed > 0 { logger.debug("Swept expired \(sweep.table)", metadata: ["count": "\(removed)"]) }
                total += removed
            } catch {
                logger.warning("Expiry sweep failed", metadata: ["table": "\(sweep.table)", "error": "\(error.code)"])
            }
        }
        return total
    }
}
