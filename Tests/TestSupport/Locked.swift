import Foundation
import Synchronization

/// A value behind a lock, shareable between tasks and handlers in tests.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Wraps a value.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Reads or changes the value under the lock.
    public func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
        mutex.withLock(body)
    }
}
