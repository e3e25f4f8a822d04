import Foundation
import LimenServerStorage
import Logging
import ServiceLifecycle

/// Reloads the signing keys every ``interval``, so keys rotated by another process (`limen-server keys rotate`, or
/// another node) are published and then used by this one without a restart.
public struct KeyRingRefresher: Service {
    /// The time between two reloads; keep it well under the rotation's publish-ahead time.
    public let interval: Duration
    private let keys: KeyRingBox
    private let store: any SigningKeyStore & FirstRunStore
    private let masterKey: MasterKey
    private let now: @Sendable () -> Date
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// A refresher of `keys` from `store`, opened with `masterKey`.
    package init(
        keys: KeyRingBox,
        store: any SigningKeyStore & FirstRunStore,
        masterKey: MasterKey,
        now: @escaping @Sendable () -> Date,
        interval: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "limen.keys")
    ) {
        (self.keys, self.store, self.masterKey, self.now) = (keys, store, masterKey, now)
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    /// Reloads the keys every ``interval`` until the service group stops.
    public func run() async throws {
        await PeriodicTask.run(every: interval, on: clock, immediately: false) { await refreshOnce() }
    }

    /// One reload; a failure is logged and the keys in memory stay as they were.
    public func refreshOnce() async {
        do {
            try await keys.reload(from: store, masterKey: masterKey, now: now())
        } catch {
            logger.warning("Reloading the signing keys failed", metadata: ["error": "\(error)"])
        }
    }
}
