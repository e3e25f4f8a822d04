import Foundation
import LimenWire

/// Runs an operation once for every caller that asks while it is under way (a coalescer, like Okta's
/// `CoalescedResult` or Firebase's `TokenRefreshCoalescer`).
///
/// ```swift
/// let refresh = SingleFlight<String?>()
/// let token = try await refresh.run { try await fetchNewToken() }   // concurrent callers share one fetch
/// ```
package actor SingleFlight<Value: Sendable> {
    private var inFlight: Task<Value, any Error>?

    /// Creates a coalescer with nothing under way.
    package init() {}

    /// Joins the operation under way, or starts `operation` when there is none.
    package func run(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let inFlight { return try await inFlight.value }
        let task = Task { try await operation() }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }
}
