import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The server closes its store when it stops")
struct StoreServiceTests {
    @Test("the store serves until the graceful shutdown, and is closed once the service group has stopped")
    func closesAtShutdown() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        try await Self.expectServedUntilShutdown(store)
    }

    @Test(
        "PostgreSQL's pool answers while the service runs and refuses once it has stopped",
        .enabled(if: PostgresTestDatabase.unavailableReason == nil, "PostgreSQL is not configured"))
    func closesThePool() async throws {
        let (_, url, cleanup) = try await PostgresTestDatabase.make()
        // Nothing else closes this store: its queries are refused only once the service has stopped.
        let store = try PostgresStore.connect(url: url, maximumConnections: 1)
        do {
            try await Self.expectServedUntilShutdown(store)
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
    }

    /// Runs `store` in a service group, checks that it answers, shuts the group down, and checks that it is closed.
    private static func expectServedUntilShutdown(_ store: some Store) async throws {
        let group = ServiceGroup(
            configuration: .init(services: [StoreService(store: store)], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            try await store.ping()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await #expect(throws: StorageError.self, "closed: nothing can use it any more") { try await store.ping() }
    }
}

@Suite("LimenServerService: the server from its configuration to its stop")
struct LimenServerServiceTests {
    @Test(
        "it opens, runs and bootstraps the store and serves on it until the graceful shutdown",
        arguments: TokenBackend.allCases)
    func serves(on backend: TokenBackend) async throws {
        try await Self.withConfiguration(on: backend) { configuration in
            let (issuers, announced) = AsyncStream.makeStream(of: String.self)
            let server = LimenServerService(configuration: configuration) { announced.yield($0) }
            try await withRunningService([server], announcing: issuers, ending: announced, "it did not start") {
                issuer in
                // /healthz pings the store: it answers only if the store's service runs.
                let health = try await URLSessionTransport.forLiveTests().send(
                    HTTPRequest(url: try #require(URL(string: issuer + "/healthz"))))
                #expect(health.status == 200)
            }
        }
    }

    @Test(
        "a start that fails throws ServerStartFailure with the step's own message, and stops the store",
        arguments: TokenBackend.allCases)
    func failedStart(on backend: TokenBackend) async throws {
        try await Self.withConfiguration(on: backend) { configuration in
            var configuration = configuration
            configuration.flowFiles = [configuration.dataDirectory + "/missing-flow.yaml"]
            let server = LimenServerService(configuration: configuration)
            // The group returns only once every service has: the store's pool ended with the failed start.
            let failure = await #expect(throws: ServerStartFailure.self) {
                try await ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test"))).run()
            }
            #expect(
                failure?.localizedDescription.contains("missing-flow.yaml") == true, "\(String(describing: failure))")
        }
    }

    @Test("a stop asked for while the start waits for a database that does not answer ends the start, quietly")
    func stopWhileStarting() async throws {
        // A listener that takes connections and never answers: PostgreSQL's start-up gets no reply.
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(silent.localAddress?.port)
        do {
            try await Self.withConfiguration(on: .sqlite) { configuration in
                var configuration = configuration
                configuration.databaseURL = "postgres://limen@127.0.0.1:\(port)/limen?sslmode=disable"
                let group = ServiceGroup(
                    configuration: .init(
                        services: [LimenServerService(configuration: configuration)], logger: Logger(label: "test")))
                // Asked for before the start: the start waits for the database, so only the stop can end it.
                await group.triggerGracefulShutdown()
                try await group.run()
            }
        } catch {
            try await silent.close()
            throw error
        }
        try await silent.close()
    }

    /// Runs `body` with a test configuration on port 0 keeping its data on `backend` (a fresh PostgreSQL database,
    /// dropped afterwards on every path, or a temporary folder's SQLite file).
    private static func withConfiguration(
        on backend: TokenBackend, _ body: (ServerConfiguration) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory, port: 0)
        guard backend == .postgres else { return try await body(configuration) }
        let (_, url, drop) = try await PostgresTestDatabase.make()
        configuration.usePostgres(url: url)
        do {
            try await body(configuration)
        } catch {
            await drop()
            throw error
        }
        await drop()
    }
}
