import LimenTestSupport

/// A clock whose sleeps end only when the test steps it, so a periodic job runs exactly when the test says, with no
/// real waiting: ``nextSleep()`` waits until the job sleeps (its previous round is done), ``step()`` wakes it.
final class SteppedClock: Clock, Sendable {
    typealias Instant = ContinuousClock.Instant

    private struct State {
        /// The sleep in progress, if any.
        var sleeper: CheckedContinuation<Void, any Error>?
        /// Who waits for the next sleep to begin.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    var now: Instant { ContinuousClock.now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    guard !Task.isCancelled else { return nil }
                    state.sleeper = continuation
                    defer { state.waiters = [] }
                    return state.waiters
                }
                guard let waiters else { return continuation.resume(throwing: CancellationError()) }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.sleeper = nil }
                return state.sleeper
            }?.resume(throwing: CancellationError())
        }
    }

    /// Returns once a sleep is in progress.
    func nextSleep() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sleeping = state.withLock { state in
                if state.sleeper == nil { state.waiters.append(continuation) }
                return state.sleeper != nil
            }
            if sleeping { continuation.resume() }
        }
    }

    /// Ends the sleep in progress, if any.
    func step() {
        state.withLock { state in
            defer { state.sleeper = nil }
            return state.sleeper
        }?.resume()
    }
}
