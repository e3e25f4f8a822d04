import Foundation

/// A counting semaphore for tests: at most `count` bodies run inside ``withSlot(_:)`` at once, the others wait their
/// turn in arrival order. Tests that each start a heavy program (a server binary) take a slot, so that a parallel run
/// on a small machine does not start them all at once and starve their answers past the clients' timeouts.
///
/// A body that takes a slot again inside its own (a test with two servers) does not wait for a second one, so nesting
/// cannot deadlock; a cancelled waiter stops waiting and throws `CancellationError`.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public final class Slots: Sendable {
    @TaskLocal private static var held: Set<ObjectIdentifier> = []

    private let queue: SlotQueue

    /// Creates `count` slots (at least one).
    public init(_ count: Int) {
        queue = SlotQueue(free: max(1, count))
    }

    /// Runs `body` holding one slot, after waiting for one to be free.
    public func withSlot<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let key = ObjectIdentifier(self)
        if Self.held.contains(key) { return try await body() }
        try await queue.acquire()
        do {
            let result = try await Self.$held.withValue(Self.held.union([key])) { try await body() }
            await queue.release()
            return result
        } catch {
            await queue.release()
            throw error
        }
    }
}

/// The free slots of a ``Slots`` and the tasks waiting for one, first come first served.
private actor SlotQueue {
    private var free: Int
    private var waiters: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

    init(free: Int) {
        self.free = free
    }

    func acquire() async throws {
        if free > 0 {
            free -= 1
            return
        }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    func release() {
        if waiters.isEmpty {
            free += 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
