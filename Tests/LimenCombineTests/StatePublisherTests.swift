import Foundation
import Limen
import OpenCombine
import Testing

/// LimenApple's Combine bridge (`AuthClient+Combine.swift`, the same file through a link) run against OpenCombine.
@Suite("The Combine publishers bridge the client's state", .timeLimit(.minutes(1)))
struct StatePublisherTests {
    static func client() -> AuthClient {
        AuthClient(
            configuration: Configuration(issuer: URL(filePath: "/unused"), clientID: "app", store: MemoryStore()))
    }

    @Test("a subscriber gets the current state at once, then each change")
    func currentThenChanges() async throws {
        let client = Self.client()
        let (phases, sink) = AsyncStream.makeStream(of: AuthState.Phase.self)
        let subscription = client.publisher(for: \.phase).sink { sink.yield($0) }
        var received = phases.makeAsyncIterator()
        #expect(await received.next() == .restoring)
        await client.restore()
        #expect(await received.next() == .signedOut)
        subscription.cancel()
    }

    @Test("cancelling the subscription ends the bridge; a new subscriber starts from the current state")
    func cancelAndResubscribe() async throws {
        let client = Self.client()
        await client.restore()
        let (states, sink) = AsyncStream.makeStream(of: AuthState.self)
        let first = client.statePublisher().sink { sink.yield($0) }
        var received = states.makeAsyncIterator()
        #expect(await received.next()?.phase == .signedOut)
        first.cancel()
        let (again, againSink) = AsyncStream.makeStream(of: AuthState.Phase.self)
        let second = client.statePublisher().map(\.phase).sink { againSink.yield($0) }
        var receivedAgain = again.makeAsyncIterator()
        #expect(await receivedAgain.next() == .signedOut)
        second.cancel()
    }
}
