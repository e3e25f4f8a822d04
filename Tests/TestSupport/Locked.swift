import Foundation
import Limen

/// A value behind a lock, shareable between tasks and handlers in tests.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: LockedValue<Value>

    /// Wraps a value.
    public init(_ value: Value) { storage = LockedValue(value) }

    /// Reads or changes the value under the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
