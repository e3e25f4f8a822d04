import Foundation

/// Holds the current ``AuthState`` and publishes every change.
final class StateStore: Sendable {
    private let current: LockedValue<AuthState>
    private let broadcast = Broadcast<AuthState>()

    init(_ initial: AuthState = AuthState()) {
        current = LockedValue(initial)
    }

    /// The current snapshot.
    var state: AuthState { current.withLock { $0 } }

    /// Replaces the state and notifies subscribers if it changed.
    func update(_ transform: (inout AuthState) -> Void) {
        current.withLock { state in
            let before = state
            transform(&state)
            if state != before { broadcast.send(state) }
        }
    }

    /// The current state, then every change.
    func updates() -> AsyncStream<AuthState> {
        current.withLock { broadcast.stream(startingWith: $0) }
    }

    /// The current value of a projection, then each time it changes.
    func subscribe<Projection: Equatable & Sendable>(
        _ projection: @escaping @Sendable (AuthState) -> Projection
    ) -> AsyncStream<Projection> {
        let states = updates()
        return AsyncStream { continuation in
            let task = Task {
                var last: Projection?
                for await state in states {
                    let value = projection(state)
                    if value != last {
                        last = value
                        continuation.yield(value)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
