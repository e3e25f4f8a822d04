import Foundation
import NIOConcurrencyHelpers

/// Lets a warning out at most once per interval, however often its cause recurs meanwhile: a full disk or a full cache
/// fails every request, and one line a minute tells the operator as much as thousands would.
package final class LogThrottle: Sendable {
    private let interval: TimeInterval
    /// When the last line went out.
    private let lastLine = NIOLockedValueBox<Date?>(nil)

    /// A throttle letting one line out per `interval` seconds.
    package init(interval: TimeInterval) {
        self.interval = interval
    }

    /// Whether a line may go out at `now`: none did in the `interval` before it (a clock that went back lets it out).
    package func isDue(at now: Date) -> Bool {
        lastLine.withLockedValue { last in
            if let last, now.timeIntervalSince(last) < interval, now >= last { return false }
            last = now
            return true
        }
    }
}
