import Dispatch
import NIOConcurrencyHelpers
import NIOCore

/// Where password hashes are computed: at most ``Limits/concurrency`` at once, off the event loops and off NIO's
/// shared thread pool (which the SQLite store uses), with at most ``Limits/waiting`` more waiting their turn. Beyond
/// that, work is refused at once (``AccountError/busy(retryAfter:)``, answered `503` with `Retry-After`), so a flood of
/// sign-ins cannot queue without bound in front of a real one, nor hold more than `concurrency` scrypt buffers.
///
/// ```swift
/// let queue = PasswordHashingQueue(limits: .init(concurrency: 2, waiting: 8))
/// let hasher = PasswordHasher(parameters: .owasp, queue: queue)
/// ```
public final class PasswordHashingQueue: Sendable {
    /// How much hashing runs and waits at once.
    public struct Limits: Sendable, Equatable {
        /// Hashes computed at once (each holds scrypt's memory, 128 MiB at OWASP's cost).
        public var concurrency: Int
        /// Hashes waiting for a free place; more are refused.
        public var waiting: Int

        /// Creates limits.
        public init(concurrency: Int, waiting: Int) {
            self.concurrency = max(1, concurrency)
            self.waiting = max(0, waiting)
        }

        /// One hash per core at once, and four per core waiting.
        public static var perCore: Limits {
            Limits(concurrency: System.coreCount, waiting: 4 * System.coreCount)
        }
    }

    /// The seconds a refused request is told to wait.
    static let retryAfter = 1

    /// The limits.
    public let limits: Limits
    private let state = NIOLockedValueBox(State())
    private let queue = DispatchQueue(label: "limen.password-hashing", attributes: .concurrent)

    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    /// Whether a hash asked for now would be refused (a hint: the answer may change before the next call).
    var isFull: Bool {
        state.withLockedValue { $0.running >= limits.concurrency && $0.waiters.count >= limits.waiting }
    }

    /// Creates a queue; one hash per core at once unless told otherwise.
    public init(limits: Limits = .perCore) {
        self.limits = limits
    }

    /// Runs `work` when a place is free and returns its result; `.busy` at once when the queue is full, and
    /// `.hashingFailed` when `work` throws.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws(AccountError) -> Value {
        guard await enter() else { throw .busy(retryAfter: Self.retryAfter) }
        defer { leave() }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
            queue.async { continuation.resume(returning: Result { try work() }) }
        }
        guard case .success(let value) = result else { throw .hashingFailed }
        return value
    }

    /// Takes a place, waiting for one when all are taken and the waiting line has room; `false` when it has none.
    private func enter() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLockedValue { state -> Bool? in
                if state.running < limits.concurrency {
                    state.running += 1
                    return true
                }
                guard state.waiters.count < limits.waiting else { return false }
                state.waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Hands the place to the first waiter, or frees it.
    private func leave() {
        let next = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume(returning: true)
    }
}
