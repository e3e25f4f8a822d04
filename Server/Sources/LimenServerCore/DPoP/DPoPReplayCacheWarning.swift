import Foundation
import LimenServerStorage
import LimenServerWire
import Logging

/// Logs that this node's DPoP replay cache is full, naming the setting to raise, at most once per `interval` however
/// many proofs it refuses meanwhile. The line carries the cache's size and retention, never a proof, token or `jti`.
package final class DPoPReplayCacheWarning: Sendable {
    private let logger: Logger
    private let throttle: LogThrottle

    /// A warning written to `logger`, at most once per `interval` seconds.
    package init(logger: Logger = Logger(label: "limen.dpop"), interval: TimeInterval = 60) {
        self.logger = logger
        throttle = LogThrottle(interval: interval)
    }

    /// Logs, unless a line went out less than `interval` before `now`, that `cache` refused a proof because it is full.
    package func cacheIsFull(_ cache: DPoPReplayCache, now: Date) {
        guard throttle.isDue(at: now) else { return }
        logger.warning(
            "The DPoP replay cache is full: proofs are refused with 503 until some expire; raise dpop_replay_cache_size",
            metadata: [
                "setting": "dpop_replay_cache_size", "capacity": "\(cache.capacity)",
                "retention_seconds": "\(Int(cache.retention))",
            ])
    }
}
