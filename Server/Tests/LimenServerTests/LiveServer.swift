import Foundation
import LimenOIDC
import Logging
import ServiceLifecycle
import Testing

@testable import LimenServer

/// Bootstraps a provider in a temporary directory, serves it on 127.0.0.1 port 0, runs `body` with the issuer the
/// server announced, and shuts everything down in every path. `configure` adjusts the test configuration first; `now`
/// is the provider's clock.
func withLiveServer(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    now: @escaping @Sendable () -> Date = Date.init,
    _ body: (Provider, String) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var configuration = ServerConfiguration.testing(directory: directory, port: 0)
    configure(&configuration)
    let provider = try await Provider.bootstrap(configuration: configuration, now: now)
    let (issuers, continuation) = AsyncStream.makeStream(of: String.self)
    let app = LimenServerApplication.make(provider: provider) { continuation.yield($0) }
    let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { continuation.finish() }
            try await group.run()
        }
        do {
            var iterator = issuers.makeAsyncIterator()
            let issuer = try #require(await iterator.next(), "the server did not start")
            try await body(provider, issuer)
        } catch {
            await group.triggerGracefulShutdown()
            await provider.store.close()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
    await provider.store.close()
}

extension URLSessionTransport {
    /// A transport for requests to a live test server. Its timeout only stops a hung test: the whole suite runs at
    /// once, so on a loaded machine an answer may take seconds, and a short timeout would fail a correct server.
    static func forLiveTests() -> URLSessionTransport {
        URLSessionTransport(timeout: 60)
    }
}
