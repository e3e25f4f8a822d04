/// Runs two store operations that do not depend on each other at once, and returns both results once both have
/// ended, or the first one's error: on the SQLite store their statements then share one commit of its group commit
/// (``SQLiteGroupCommit``) instead of waiting for one commit each.
///
/// ```swift
/// let (_, wait) = try await concurrently({ try await codes.issue(…) }, { try await outbox.enqueue(…) })
/// ```
package func concurrently<First: Sendable, Second: Sendable>(
    _ first: @Sendable () async throws(StorageError) -> First,
    _ second: @Sendable () async throws(StorageError) -> Second
) async throws(StorageError) -> (First, Second) {
    // Typed throws do not cross `async let`: each side is carried as a Result.
    async let firstOutcome = outcome(of: first)
    async let secondOutcome = outcome(of: second)
    let (firstResult, secondResult) = await (firstOutcome, secondOutcome)
    return (try firstResult.get(), try secondResult.get())
}

/// What `body` returned or threw.
private func outcome<Value>(of body: () async throws(StorageError) -> Value) async -> Result<Value, StorageError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
