import Foundation
import Logging
import ServiceLifecycle

/// Reloads the signing keys every ``interval``, so keys rotated by another process (`limen-server keys rotate`, or
/// another node) are published and then used by this one without a restart.
public struct KeyRingRefresher: Service {
    /// The time between two reloads; keep it well under the rotation's publish-ahead time.
    public let interval: Duration
    private let provider: Provider
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// Creates a refresher.
    public init(
        provider: Provider,
        interval: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "limen.keys")
    ) {
        self.provider = provider
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        await PeriodicTask.run(every: interval, on: clock, immediately: false) { await refreshOnce() }
    }

    /// One reload; a failure is logged and the keys in memory stay as they were.
    public func refreshOnce() async {
        do {
            try await provider.reloadKeys()
        } catch {
            logger.warning("Reloading the signing keys failed", metadata: ["error": "\(error)"])
        }
    }
}
