import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("AuthClient events")
struct AuthEventTests {
    @Test("a refresh emits tokenRefreshed to handlers and streams")
    func refresh() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let recorder = EventRecorder(fixture.client)
            var stream = fixture.client.eventStream().makeAsyncIterator()
            try await fixture.client.refresh()
            #expect(recorder.recorded == [.tokenRefreshed])
            #expect(await stream.next() == .tokenRefreshed)
        }
    }

    @Test("invalid_grant emits sessionExpired to handlers and streams")
    func invalidGrant() async throws {
        try await ProviderFixture.with { _ in
            .json(#"{"error":"invalid_grant"}"#, status: 400)
        } run: { fixture async throws in
            let recorder = EventRecorder(fixture.client)
            var stream = fixture.client.eventStream().makeAsyncIterator()
            #expect(try await fixture.client.refresh() == nil)
            #expect(recorder.recorded == [.sessionExpired])
            #expect(await stream.next() == .sessionExpired)
        }
    }

    @Test("sign-out emits signedOut; a refresh then sign-out arrive in that order")
    func signOutInOrder() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let recorder = EventRecorder(fixture.client)
            var stream = fixture.client.eventStream().makeAsyncIterator()
            try await fixture.client.refresh()
            await fixture.client.signOut(revoke: false)
            #expect(recorder.recorded == [.tokenRefreshed, .signedOut])
            #expect(await stream.next() == .tokenRefreshed)
            #expect(await stream.next() == .signedOut)
        }
    }

    @Test("two handlers both receive every event, in registration order")
    func handlersInRegistrationOrder() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let calls = Locked<[String]>([])
            fixture.client.addEventHandler { event in calls.withLock { $0.append("first \(event)") } }
            fixture.client.addEventHandler { event in calls.withLock { $0.append("second \(event)") } }
            try await fixture.client.refresh()
            await fixture.client.signOut(revoke: false)
            #expect(
                calls.withLock { $0 } == [
                    "first tokenRefreshed", "second tokenRefreshed", "first signedOut", "second signedOut",
                ])
        }
    }

    @Test("a removed handler receives nothing more")
    func removedHandler() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let removed = Locked<[AuthEvent]>([])
            let id = fixture.client.addEventHandler { event in removed.withLock { $0.append(event) } }
            let kept = EventRecorder(fixture.client)
            try await fixture.client.refresh()
            fixture.client.removeEventHandler(id)
            await fixture.client.signOut(revoke: false)
            #expect(removed.withLock { $0 } == [.tokenRefreshed])
            #expect(kept.recorded == [.tokenRefreshed, .signedOut])
        }
    }
}
