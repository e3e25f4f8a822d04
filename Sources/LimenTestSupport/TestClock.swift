import Foundation

/// A `Clock` for code that waits (retry back-off, device polling): every sleep is recorded, moves the clock's time to
/// its deadline and returns at once, unless the test gives an `onSleep` that does something else first.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public final class TestClock: Clock, Sendable {
    /// A point on the test clock: the time since it started.
    public struct Instant: InstantProtocol {
        /// The time since the clock started.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))
    private let onSleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock at time zero; `onSleep` runs on every sleep after it is recorded (it may throw, as a
    /// cancelled sleep does).
    public init(onSleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }) {
        self.onSleep = onSleep
    }

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// No resolution limit.
    public var minimumResolution: Duration { .zero }

    /// Every sleep requested so far, in order.
    public var recorded: [Duration] { state.withLock { $0.sleeps } }

    /// Records the wait, moves the time to `deadline`, runs `onSleep`, then returns (or throws when cancelled).
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let duration = state.withLock { state in
            let duration = state.now.duration(to: deadline)
            state.sleeps.append(duration)
            state.now = max(state.now, deadline)
            return duration
        }
        try await onSleep(duration)
        try Task.checkCancellation()
    }
}
