import Foundation

/// A one-shot barrier: tasks that `wait()` resume when the test calls `open()`; waiting after that returns at once.
///
/// A waiting task that is cancelled resumes too (check `Task.isCancelled` after the wait when it matters), so a gate
/// that is never opened cannot hold a task group or a deadline (``withDeadline(_:clock:_:)``) forever.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public actor Gate {
    private var isOpen = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Creates a closed gate.
    public init() {}

    /// Suspends until the gate opens or the waiting task is cancelled.
    public func wait() async {
        if isOpen { return }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    /// Opens the gate and resumes every waiter.
    public func open() {
        isOpen = true
        for waiter in waiters.values { waiter.resume() }
        waiters.removeAll()
    }

    /// Resumes the waiter `id` (cancelled) if it still waits.
    private func release(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume()
    }
}
