import Foundation

/// A value behind a lock, shareable between tasks and handlers in tests.
///
/// Part of LimenTestSupport, Limen's own test support (used by the SDK's and the server's tests); not a stable API.
///
/// `@unchecked Sendable` is sound: `value` is private and read or written only inside ``withLock(_:)``, while `lock` is
/// held, and it is `Sendable` itself.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps a value.
    public init(_ value: Value) { self.value = value }

    /// Reads or changes the value under the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
