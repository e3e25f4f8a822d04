import Foundation
import Limen

/// A settable clock for code that takes a `now` closure: time moves only when the test says so.
public final class TestNow: Sendable {
    private let current: LockedValue<Date>

    /// Starts at `start` (default: a fixed date, 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = LockedValue(start)
    }

    /// The closure to inject.
    public var now: @Sendable () -> Date {
        { self.date }
    }

    /// The current time.
    public var date: Date { current.withLock { $0 } }

    /// Moves the time forward.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
