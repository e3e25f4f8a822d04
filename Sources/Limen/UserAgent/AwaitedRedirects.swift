import Foundation

/// The sign-ins of one ``AuthClient`` waiting for a redirect that reaches the app from outside, through
/// ``AuthClient/handle(url:)``: the redirect an app-to-app sign-in's host app opens (``AppToAppUserAgent``). The first
/// waiter whose ``CallbackMatcher`` accepts a URL takes it; a URL none accepts is left to the app's other handling.
@MainActor
final class AwaitedRedirects {
    private var waiting: [(id: UUID, callback: CallbackMatcher, deliver: @MainActor (URL) -> Void)] = []

    /// An empty list; every client has one.
    nonisolated init() {}

    /// Waits for a redirect that `callback` accepts: `deliver` gets the first such URL, once.
    /// - Returns: The waiter's identity, for ``forget(_:)``.
    func expect(_ callback: CallbackMatcher, deliver: @escaping @MainActor (URL) -> Void) -> UUID {
        let id = UUID()
        waiting.append((id, callback, deliver))
        return id
    }

    /// Stops waiting (the attempt ended another way); unknown identities are ignored.
    func forget(_ id: UUID) {
        waiting.removeAll { $0.id == id }
    }

    /// Hands `url` to the first waiter that accepts it, which stops waiting.
    /// - Returns: Whether a waiter took it.
    func deliver(_ url: URL) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.callback.matches(url) }) else { return false }
        let waiter = waiting.remove(at: index)
        waiter.deliver(url)
        return true
    }
}
