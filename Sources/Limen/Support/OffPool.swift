import Dispatch

/// Runs CPU-bound synchronous work (PBKDF2 at 600,000 rounds, a noticeable fraction of a second) on a Dispatch
/// queue of its own instead of Swift concurrency's cooperative pool, whose few threads (one per core) would otherwise
/// stay busy and starve every other task meanwhile; the caller suspends until the work is done.
///
/// ```swift
/// let export = try await OffPool.run { () throws(EncryptionError) in try key.exported(passphrase: passphrase) }
/// ```
package enum OffPool {
    /// The queue the work runs on: concurrent, so two derivations do not wait for each other.
    private static let queue = DispatchQueue(label: "limen.off-pool", qos: .userInitiated, attributes: .concurrent)

    /// Runs `work` on ``queue`` and returns what it returns, or throws what it throws.
    package static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try result.get()
    }
}
