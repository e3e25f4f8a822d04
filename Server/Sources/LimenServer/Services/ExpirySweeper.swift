import Foundation
import Logging
import ServiceLifecycle

/// Deletes expired rows (authorization codes, grants, refresh tokens and access-token revocations; sessions and
/// device codes as they arrive) at start and then every ``interval``, until the service group shuts down.
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
        let date = now()
        let store = store
        let sweeps: [(name: String, sweep: @Sendable () async throws -> Int)] = [
            ("authorization codes", { try await store.deleteExpiredAuthorizationCodes(before: date) }),
            ("refresh tokens", { try await store.deleteExpiredRefreshTokens(before: date) }),
            ("grants", { try await store.deleteExpiredGrants(before: date) }),
            ("access token revocations", { try await store.deleteExpiredAccessTokenRevocations(before: date) }),
        ]
        var total = 0
        for (name, sweep) in sweeps {
            do {
                let removed = try await sweep()
                if removed > 0 { logger.debug("Swept expired \(name)", metadata: ["count": "\(removed)"]) }
                total += removed
            } catch {
                logger.warning(
                    "Expiry sweep failed",
                    metadata: ["table": "\(name)", "error": "\((error as? StorageError)?.code ?? "unknown")"])
            }
        }
        return total
    }
}
