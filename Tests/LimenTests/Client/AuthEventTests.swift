import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

@Suite("AuthClient events")
struct AuthEventTests {
    @Test("a refresh emits tokenRefreshed to handlers and streams")
    func refresh() async throws {
        let fixture = try await ProviderFixture.start { _ in .json(ProviderFixture.rotated) }
        let recorder = EventRecorder(fixture.client)
        var stream = fixture.client.eventStream().makeAsyncIterator()
        try await fixture.client.refresh()
        #expect(recorder.recorded == [.tokenRefreshed])
        #expect(await stream.next() == .tokenRefreshed)
        await fixture.stop()
    }

    @Test("invalid_grant emits sessionExpired to handlers and streams")
    func invalidGrant() async throws {
        let fixture = try await ProviderFixture.start { _ in .json(#"{"error":"invalid_grant"}"#, status: 400) }
        let recorder = EventRecorder(fixture.client)
        var stream = fixture.client.eventStream().makeAsyncIterator()
        #expect(try await fixture.client.refresh() == nil)
        #expect(recorder.recorded == [.sessionExpired])
        #expect(await stream.next() == .sessionExpired)
        await fixture.stop()
    }

    @Test("sign-out emits signedOut; a refresh then sign-out arrive in that order")
    func signOutInOrder() async throws {
        let fixture = try await ProviderFixture.start { _ in .json(ProviderFixture.rotated) }
        let recorder = EventRecorder(fixture.client)
        var stream = fixture.client.eventStream().makeAsyncIterator()
        try await fixture.client.refresh()
        await fixture.client.signOut(revoke: false)
        #expect(recorder.recorded == [.tokenRefreshed, .signedOut])
        #expect(await stream.next() == .tokenRefreshed)
        #expect(await stream.next() == .signedOut)
        await fixture.stop()
    }

    @Test("two handlers both receive every event, in registration order")
    func handlersInRegistrationOrder() async throws {
        let fixture = try await ProviderFixture.start { _ in .json(ProviderFixture.rotated) }
        let calls = Locked<[String]>([])
        fixture.client.addEventHandler { event in calls.withLock { $0.append("first \(event)") } }
        fixture.client.addEventHandler { event in calls.withLock { $0.append("second \(event)") } }
        try await fixture.client.refresh()
        await fixture.client.signOut(revoke: false)
        #expect(
            calls.withLock { $0 } == [
                "first tokenRefreshed", "second tokenRefreshed", "first signedOut", "second signedOut",
            ])
        await fixture.stop()
    }

    @Test("a removed handler receives nothing more")
    func removedHandler() async throws {
        let fixture = try await ProviderFixture.start { _ in .json(ProviderFixture.rotated) }
        let removed = Locked<[AuthEvent]>([])
        let id = fixture.client.addEventHandler { event in removed.withLock { $0.append(event) } }
        let kept = EventRecorder(fixture.client)
        try await fixture.client.refresh()
        fixture.client.removeEventHandler(id)
        await fixture.client.signOut(revoke: false)
        #expect(removed.withLock { $0 } == [.tokenRefreshed])
        #expect(kept.recorded == [.tokenRefreshed, .signedOut])
        await fixture.stop()
    }
}
