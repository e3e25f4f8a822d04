/// A first-come, first-served mutual exclusion for async code: waiters suspend instead of blocking a thread.
actor AsyncMutex {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while no other `withLock` body of this mutex runs, and releases in every path.
    func withLock<T: Sendable, Failure: Error>(_ body: @Sendable () async throws(Failure) -> T) async throws(Failure)
        -> T
    {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock() async {
        guard isLocked else {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func unlock() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            // Ownership passes straight to the next waiter, so no newcomer can overtake it.
            waiters.removeFirst().resume()
        }
    }
}
