import Foundation

/// A value behind a lock, on every platform Limen supports: Synchronization's `Mutex` needs iOS 18 / macOS 15 /
/// tvOS 18 / watchOS 11 / visionOS 2, above the package's minimums.
///
/// `@unchecked Sendable` is sound: `value` is private and read or written only inside ``withLock(_:)``, while `lock` is
/// held, and it is `Sendable` itself, so nothing read out of it is shared unsafely.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Reads or changes the value while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
