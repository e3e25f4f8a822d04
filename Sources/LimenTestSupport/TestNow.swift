import Foundation

/// A settable clock for code that takes a `now` closure: time moves only when the test says so.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public final class TestNow: Sendable {
    private let current: Locked<Date>

    /// Starts at `start` (default: a fixed date, 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Locked(start)
    }

    /// The current time; inject `{ clock.now }` where a `now` closure is wanted.
    public var now: Date { current.withLock { $0 } }

    /// Moves the time forward.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
