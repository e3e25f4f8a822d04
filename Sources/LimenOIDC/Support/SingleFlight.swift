import Foundation
import LimenWire

/// Runs an operation once for every caller that asks while it is under way (a coalescer, like Okta's
/// `CoalescedResult` or Firebase's `TokenRefreshCoalescer`).
///
/// The operation's typed failure reaches every caller as it was thrown. The shared operation runs in a task of its
/// own: cancelling one caller does not cancel it for the others.
///
/// ```swift
/// let refresh = SingleFlight<String?, LimenError>()
/// let token = try await refresh.run { try await fetchNewToken() }   // concurrent callers share one fetch
/// ```
package actor SingleFlight<Value: Sendable, Failure: Error> {
    private var inFlight: Task<Result<Value, Failure>, Never>?

    /// Creates a coalescer with nothing under way.
    package init() {}

    /// Joins the operation under way, or starts `operation` when there is none.
    package func run(_ operation: @escaping @Sendable () async throws(Failure) -> Value) async throws(Failure)
        -> Value
    {
        if let inFlight { return try await inFlight.value.get() }
        let task = Task { () async -> Result<Value, Failure> in
            do throws(Failure) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value.get()
    }
}
