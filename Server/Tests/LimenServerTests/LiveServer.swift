import Foundation
import LimenOIDC
import LimenServerStorage
import Logging
import ServiceLifecycle
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Bootstraps a provider in a temporary directory, serves it on 127.0.0.1 port 0, runs `body` with the issuer the
/// server announced, and shuts everything down in every path. `configure` adjusts the test configuration first; `now`
/// is the provider's clock.
func withLiveServer(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    now: @escaping @Sendable () -> Date = Date.init,
    _ body: (ServerComposition, String) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var configuration = ServerConfiguration.testing(directory: directory, port: 0)
    configure(&configuration)
    let provider = try await ServerComposition.bootstrap(configuration: configuration, now: now)
    let (issuers, continuation) = AsyncStream.makeStream(of: String.self)
    let app = LimenServerApplication.make(composition: provider) { continuation.yield($0) }
    // The store's service closes it once the application has stopped, however `body` ends (as in the server).
    try await withRunningService(
        [StoreService(store: provider.store), app], announcing: issuers, ending: continuation,
        "the server did not start"
    ) {
        try await body(provider, $0)
    }
}

/// Runs `services` in a service group until `body` ends, however it ends; `body` gets the first value `announced`
/// yields (a service tells it once it listens), and `ending` finishes that stream when the group stops.
func withRunningService<Announced: Sendable>(
    _ services: [any Service],
    announcing announced: AsyncStream<Announced>,
    ending: AsyncStream<Announced>.Continuation,
    _ failure: Comment,
    _ body: (Announced) async throws -> Void
) async throws {
    let group = ServiceGroup(services: services, gracefulShutdownSignals: [], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { ending.finish() }
            try await group.run()
        }
        do {
            var iterator = announced.makeAsyncIterator()
            try await body(try #require(await iterator.next(), failure))
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}

extension URLSessionTransport {
    /// A transport for requests to a live test server. Its timeout only stops a hung test: the whole suite runs at
    /// once, so on a loaded machine an answer may take seconds, and a short timeout would fail a correct server.
    static func forLiveTests() -> URLSessionTransport {
        URLSessionTransport(timeout: 60)
    }
}
