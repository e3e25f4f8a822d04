import NIOConcurrencyHelpers

/// At most ``maximum`` operations per key at once in this node; keys with none running are forgotten, so memory
/// follows what is in flight.
package final class InFlightLimit: Sendable {
    /// The most operations one key may have running.
    package let maximum: Int
    private let running = NIOLockedValueBox<[String: Int]>([:])

    /// A limit of `maximum` per key.
    package init(maximum: Int) {
        self.maximum = maximum
    }

    /// Starts an operation for `key`: `false` (and nothing started) when `key` has ``maximum`` running already.
    func enter(_ key: String) -> Bool {
        running.withLockedValue { running in
            let count = running[key, default: 0]
            guard count < maximum else { return false }
            running[key] = count + 1
            return true
        }
    }

    /// Ends an operation ``enter(_:)`` started for `key`.
    package func leave(_ key: String) {
        running.withLockedValue { running in
            let count = running[key, default: 1] - 1
            running[key] = count > 0 ? count : nil
        }
    }
}
