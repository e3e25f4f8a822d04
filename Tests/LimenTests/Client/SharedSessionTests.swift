import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@testable import Limen

/// Two clients playing an app and its widget: each with its own store instance over one directory (so one lock file),
/// both on one twin of the Darwin notification center.
@Suite("A change in one process is seen by the others", .timeLimit(.minutes(1)))
struct SharedSessionTests {
    /// The Darwin notification center of one name, shared by the clients that play the processes.
    final class NotificationTwin: SessionChangeChannel {
        private let listeners = Locked<[UUID: AsyncStream<Void>.Continuation]>([:])

        func post() {
            for listener in listeners.withLock({ Array($0.values) }) { listener.yield() }
        }

        func changes() -> AsyncStream<Void> {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            let id = UUID()
            listeners.withLock { $0[id] = continuation }
            continuation.onTermination = { [listeners] _ in _ = listeners.withLock { $0.removeValue(forKey: id) } }
            return stream
        }
    }

    /// Counts calls of the session-change hook.
    final class HookCounter: Sendable {
        let calls = Locked(0)
        var hook: @Sendable () -> Void { { [calls] in calls.withLock { $0 += 1 } } }
    }

    @Test("a refresh and a sign-out in the app reach the widget; the hook runs on both sides")
    func refreshAndSignOut() async throws {
        try await withTemporaryDirectory { directory in
            let twin = NotificationTwin()
            let appHook = HookCounter()
            let widgetHook = HookCounter()
            try await ProviderFixture.with(
                store: try EncryptedFileStore(directory: directory, namespace: "app")
            ) { _ in
                .json(ProviderFixture.rotated)
            } run: { fixture async throws in
                var appConfiguration = fixture.client.configuration
                appConfiguration.sessionChanges = twin
                appConfiguration.onSessionChange = appHook.hook
                let app = AuthClient(configuration: appConfiguration)
                var widgetConfiguration = appConfiguration
                widgetConfiguration.store = try EncryptedFileStore(directory: directory, namespace: "app")
                widgetConfiguration.onSessionChange = widgetHook.hook
                let widget = AuthClient(configuration: widgetConfiguration)
                await app.restore()
                await widget.restore()
                var tokens = widget.subscribe { $0.auth.accessToken }.makeAsyncIterator()
                #expect(await tokens.next() == "at-old")

                #expect(try await app.refresh() == "at-new")
                #expect(await tokens.next() == "at-new")
                #expect(await fixture.tokenRequests() == 1, "the widget reloaded; it did not refresh")

                await app.signOut(revoke: false)
                #expect(await tokens.next() == .some(nil))
                #expect(widget.state.phase == .signedOut)
                #expect(appHook.calls.withLock { $0 } >= 2)
                #expect(widgetHook.calls.withLock { $0 } == 2)
            }
        }
    }

    @Test("a change heard before the first restore is left to that restore")
    func beforeRestore() async throws {
        let client = AuthClient(
            configuration: Configuration(issuer: URL(filePath: "/unused"), clientID: "app", store: MemoryStore()))
        await client.reloadSharedSession()
        #expect(client.state.phase == .restoring)
    }
}
