import Foundation

/// Fans values out to any number of `AsyncStream` subscribers, in order.
final class Broadcast<Value: Sendable>: Sendable {
    private let continuations = LockedValue<[UUID: AsyncStream<Value>.Continuation]>([:])

    /// A stream of every value sent from now on, optionally starting with `initial`.
    func stream(startingWith initial: Value? = nil) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuations.withLock { subscribers in
            if let initial { continuation.yield(initial) }
            subscribers[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends a value to every current subscriber.
    func send(_ value: Value) {
        continuations.withLock { subscribers in
            for continuation in subscribers.values { continuation.yield(value) }
        }
    }
}
