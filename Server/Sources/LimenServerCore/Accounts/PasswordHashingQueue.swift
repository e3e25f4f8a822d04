import Dispatch
import LimenServerStorage
import NIOConcurrencyHelpers
import NIOCore

/// Where password hashes are computed: at most ``Limits/concurrency`` at once, off the event loops and off NIO's
/// shared thread pool (which the SQLite store uses), with at most ``Limits/waiting`` more waiting their turn. Beyond
/// that, work is refused at once (``AccountError/busy(retryAfter:)``, answered `503` with `Retry-After`), so a flood of
/// sign-ins cannot queue without bound in front of a real one, nor hold more than `concurrency` scrypt buffers. Work
/// done for a client address holds at most ``Limits/perClientAddress`` places (running or waiting), so one address can
/// never fill the queue in front of everyone else's sign-in.
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

        /// The most places (running or waiting) the work of one client address holds: a quarter of all places, at least
        /// one.
        public var perClientAddress: Int {
            max(1, (concurrency + waiting) / 4)
        }

        /// One hash per core at once, and four per core waiting.
        public static var perCore: Limits {
            Limits(concurrency: System.coreCount, waiting: 4 * System.coreCount)
        }
    }

    /// The seconds a refused request is told to wait.
    package static let retryAfter = 1

    /// The limits.
    public let limits: Limits
    private let state = NIOLockedValueBox(State())
    private let queue = DispatchQueue(label: "limen.password-hashing", attributes: .concurrent)

    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Bool, Never>] = []
        /// The places (running or waiting) each client address's work holds, by ``ClientNetwork`` key.
        var held: [String: Int] = [:]

        /// Whether work for `key` (a client address's ``ClientNetwork`` key, `nil` for work of nobody's) would be
        /// refused now.
        func refuses(_ key: String?, limits: Limits) -> Bool {
            if let key, held[key, default: 0] >= limits.perClientAddress { return true }
            return running >= limits.concurrency && waiters.count >= limits.waiting
        }
    }

    /// Whether a hash asked for now for `clientAddress` (`nil`: the admin API, the command line) would be refused (a
    /// hint: the answer may change before the next call).
    func isFull(for clientAddress: String?) -> Bool {
        let key = clientAddress.map(ClientNetwork.key(of:))
        return state.withLockedValue { $0.refuses(key, limits: limits) }
    }

    /// Creates a queue; one hash per core at once unless told otherwise.
    public init(limits: Limits = .perCore) {
        self.limits = limits
    }

    /// Runs `work`, asked for by `clientAddress` (`nil`: the admin API, the command line), when a place is free and
    /// returns its result; `.busy` at once when the queue is full or the address holds its share of it, and
    /// `.hashingFailed` when `work` throws.
    package func run<Value: Sendable>(
        for clientAddress: String? = nil,
        _ work: @escaping @Sendable () throws -> Value
    ) async throws(AccountError) -> Value {
        let key = clientAddress.map(ClientNetwork.key(of:))
        guard await enter(key) else { throw .busy(retryAfter: Self.retryAfter) }
        defer { leave(key) }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
            queue.async { continuation.resume(returning: Result { try work() }) }
        }
        guard case .success(let value) = result else { throw .hashingFailed }
        return value
    }

    /// Takes a place for `key`, waiting for one when all are taken and the waiting line has room; `false` when it has
    /// none or `key` holds its share.
    private func enter(_ key: String?) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLockedValue { state -> Bool? in
                guard !state.refuses(key, limits: limits) else { return false }
                if let key { state.held[key, default: 0] += 1 }
                if state.running < limits.concurrency {
                    state.running += 1
                    return true
                }
                state.waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Gives back `key`'s place and hands it to the first waiter, or frees it.
    private func leave(_ key: String?) {
        let next = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            if let key {
                let held = state.held[key, default: 1] - 1
                state.held[key] = held > 0 ? held : nil
            }
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume(returning: true)
    }
}
