/// Carries "the stored session changed" between the processes that share a store (an app and its extensions): each
/// client posts after it signs in, refreshes or signs out, and reloads the stored session when another one posts.
///
/// `Configuration.appGroup(_:onSessionChange:)` sets a Darwin notification channel; tests use a twin shared by the
/// clients that play the processes.
public protocol SessionChangeChannel: Sendable {
    /// Tells every listener, in this process and the others, that the stored session changed.
    func post()
    /// An event for each post, from this process or another, until the iterating task is cancelled.
    func changes() -> AsyncStream<Void>
}

/// The task that listens to a client's ``SessionChangeChannel``; it ends when the client (which owns this) goes.
final class SessionChangeListening: Sendable {
    private let task = LockedValue<Task<Void, Never>?>(nil)

    /// Starts `listen`, replacing nothing (called once, from the client's initialiser).
    func start(_ listen: @escaping @Sendable () async -> Void) {
        task.withLock { $0 = Task(operation: listen) }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
