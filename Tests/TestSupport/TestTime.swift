import Foundation

/// A settable "now" for tests that check expiry, leeway and cache lifetimes without sleeping.
///
/// ```swift
/// let time = TestTime(Date(timeIntervalSince1970: 1_700_000_000))
/// let cache = JWKSCache(jwksURI: url, transport: transport, now: time.source)
/// time.advance(by: 3600)
/// ```
public final class TestTime: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Starts the clock at `start`.
    public init(_ start: Date) {
        current = start
    }

    /// The current time.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        lock.withLock { current.addTimeInterval(interval) }
    }

    /// A `now` source to inject.
    public var source: @Sendable () -> Date {
        { [self] in now }
    }
}
