import Foundation

/// Delivers ``AuthEvent``s, in the order they happen, to registered handlers and to streams.
final class EventBus: Sendable {
    /// A registered handler.
    typealias Handler = @Sendable (AuthEvent) -> Void

    private let handlers = LockedValue<[(id: UUID, handler: Handler)]>([])
    private let broadcast = Broadcast<AuthEvent>()

    /// Adds a handler; returns a token that removes it.
    func addHandler(_ handler: @escaping Handler) -> UUID {
        let id = UUID()
        handlers.withLock { $0.append((id, handler)) }
        return id
    }

    /// Removes a handler.
    func removeHandler(_ id: UUID) {
        handlers.withLock { $0.removeAll { $0.id == id } }
    }

    /// Every event from now on.
    func stream() -> AsyncStream<AuthEvent> {
        broadcast.stream()
    }

    /// Delivers an event to every handler (in registration order), then to the streams.
    func emit(_ event: AuthEvent) {
        for entry in handlers.withLock({ $0 }) { entry.handler(event) }
        broadcast.send(event)
    }
}
