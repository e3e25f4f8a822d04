import Foundation
import LimenServerStorage
import Logging
import ServiceLifecycle

/// Makes the rate limits hold for the deployment, not per node: every second each node adds to the store what its
/// limiters admitted since the last time (``RateCountStore``, in windows of ten seconds), and takes off its own
/// buckets what the other nodes added since it last looked. Behind two nodes an address gets the configured rate, not
/// twice it; the overshoot is bounded by what the others admit in one interval.
///
/// ```swift
/// let sharing = RateLimitSharing(limiters: composition.rateLimiters, store: composition.store, now: Date.init)
/// // a service of the application, when the store is PostgreSQL
/// ```
public actor RateLimitSharing: Service {
    /// The length of a window of counts, in seconds.
    public static let windowLength: TimeInterval = 10
    /// The most client keys a node shares per limit and exchange (those with the most admissions).
    public static let keysPerExchange = 500

    /// How often it exchanges.
    public nonisolated let interval: Duration
    /// The name this node's counts carry: one per process.
    public nonisolated let node: String
    private let limiters: [(name: String, limiter: RateLimiter)]
    private let store: any RateCountStore
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// The other nodes' totals as last seen, so that only what they added since is taken off.
    private var seen: [RateCount: Int] = [:]
    /// The window in which old counts were last deleted.
    private var sweptWindow = Int64.min

    /// Shares the shared limiters of `limiters` through `store` every `interval` on `clock`.
    package init(
        limiters: RateLimiters,
        store: any RateCountStore,
        node: String = UUID().uuidString,
        interval: Duration = .seconds(1),
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date,
        logger: Logger = Logger(label: "limen.rate-limits")
    ) {
        self.limiters = limiters.shared
        (self.store, self.node, self.interval, self.clock) = (store, node, interval, clock)
        (self.now, self.logger) = (now, logger)
    }

    /// Exchanges every ``interval`` until the application stops.
    public nonisolated func run() async throws {
        guard !limiters.isEmpty else {
            try? await gracefulShutdown()  // returning early would end the application
            return
        }
        await PeriodicTask.run(every: interval, on: clock, immediately: false) { await self.exchange() }
    }

    /// Adds this node's admissions since the last exchange to the store, and takes the others' new ones off its
    /// buckets. A store that fails is logged, and the limits stay this node's own until it answers again.
    public func exchange() async {
        let date = now()
        let window = Int64((date.timeIntervalSince1970 / Self.windowLength).rounded(.down))
        do {
            let mine = limiters.flatMap { name, limiter in
                limiter.takeAdmitted(atMost: Self.keysPerExchange).map { key, admitted in
                    RateCount(limit: name, key: key, node: node, window: window, admitted: admitted)
                }
            }
            try await store.addRateCounts(mine)
            let theirs = try await store.rateCounts(fromWindow: window - 1, excludingNode: node)
            for (name, limiter) in limiters {
                limiter.debit(newlyAdmitted(in: theirs, limit: name), at: date)
            }
            seen = Dictionary(theirs.map { (Self.identity(of: $0), $0.admitted) }, uniquingKeysWith: max)
            if window > sweptWindow {
                try await store.deleteRateCounts(beforeWindow: window - 6)
                sweptWindow = window
            }
        } catch {
            logger.warning("Rate limit counts not shared", metadata: ["error": "\(error)"])
        }
    }

    /// What the other nodes admitted under `limit` since they were last seen, by key.
    private func newlyAdmitted(in counts: [RateCount], limit: String) -> [String: Int] {
        var added: [String: Int] = [:]
        for count in counts where count.limit == limit {
            let since = count.admitted - (seen[Self.identity(of: count)] ?? 0)
            if since > 0 { added[count.key, default: 0] += since }
        }
        return added
    }

    /// `count` without its total: the limit, key, node and window it is the total of.
    private static func identity(of count: RateCount) -> RateCount {
        var identity = count
        identity.admitted = 0
        return identity
    }
}
