import Foundation
import Logging

/// Logs `storage.disk_full` when SQLite cannot grow the database file because its disk is full, naming the file, at
/// most once per `interval` however many writes fail meanwhile: each of those is answered `503` (and logged as such by
/// the server), reads go on, and writes work again once space is freed.
final class SQLiteDiskFullWarning: Sendable {
    private let logger: Logger
    private let throttle: LogThrottle

    /// A warning written to `logger`, at most once per `interval` seconds.
    init(logger: Logger, interval: TimeInterval = 60) {
        self.logger = logger
        throttle = LogThrottle(interval: interval)
    }

    /// Logs, unless a line went out less than `interval` before `now`, that a write to `path` failed on a full disk.
    func diskIsFull(path: String, now: Date = Date()) {
        guard throttle.isDue(at: now) else { return }
        logger.error(
            "The disk is full: writes to the database fail (answered 503) until space is freed; reads go on",
            metadata: ["code": "storage.disk_full", "path": "\(path)"])
    }
}
