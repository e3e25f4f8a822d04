/// Runs `operation` and returns its value, or `nil` when `timeout` passes on `clock` first; the operation is cancelled
/// then, and must end when it is (an `AsyncStream` iteration, a ``Gate`` wait and `Task.sleep` do).
///
/// The guard every wait on something outside the test needs (a child process's output, a socket's close), so a peer
/// that stays silent fails its test instead of hanging the run. Tests of the time-out itself inject a ``TestClock``,
/// whose sleeps return at once. Throws what `operation` throws, or `CancellationError` when the caller is cancelled.
///
/// ```swift
/// let closed = try await withDeadline(.seconds(60)) { try await channel.closeFuture.get() } != nil
/// ```
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public func withDeadline<Value: Sendable>(
    _ timeout: Duration,
    clock: some Clock<Duration> = ContinuousClock(),
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value? {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}
