import Foundation
import LimenServerCore
import LimenServerStorage
import Logging
import ServiceLifecycle

/// Limen Server from its configuration to its stop, as one service: it opens the store, closes it at the end (``StoreService``),
/// bootstraps on it and serves, all in one `ServiceGroup`. At the graceful shutdown the HTTP server stops first and
/// the store last.
///
/// ```swift
/// let server = LimenServerService(configuration: ServerConfiguration())
/// try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
public struct LimenServerService: Service {
    /// How the server runs.
    public let configuration: ServerConfiguration
    /// Where the server and its start log.
    public let logger: Logger
    /// Told the issuer once the port is bound.
    public let onServerRunning: @Sendable (_ issuer: String) async -> Void

    /// Makes it of its parts; nothing is opened until ``run()``.
    public init(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "limen.server"),
        onServerRunning: @escaping @Sendable (_ issuer: String) async -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.onServerRunning = onServerRunning
    }

    /// Serves until the graceful shutdown. A start that fails (an unreadable file, a database that refuses, a bad
    /// flow) throws ``ServerStartFailure``; the store is closed on every path.
    public func run() async throws {
        let store: any Store
        do {
            store = try await ServerComposition.openStore(configuration: configuration)
        } catch {
            throw ServerStartFailure(reason: error)
        }
        let serving = ServingService(
            configuration: configuration, store: store, logger: logger, onServerRunning: onServerRunning)
        try await ServiceGroup(configuration: .init(services: [StoreService(store: store), serving], logger: logger))
            .run()
    }
}

/// Bootstraps on the open store, then serves until the graceful shutdown. A stop asked for during the start (a
/// database that does not answer yet, Ctrl-C) ends the start at once, quietly.
private struct ServingService: Service {
    let configuration: ServerConfiguration
    let store: any Store
    let logger: Logger
    let onServerRunning: @Sendable (_ issuer: String) async -> Void

    func run() async throws {
        let composition: ServerComposition
        do {
            composition = try await cancelWhenGracefulShutdown { [configuration, store, logger] in
                try await ServerComposition.bootstrap(configuration: configuration, store: store, logger: logger)
            }
        } catch {
            if Task.isShuttingDownGracefully { return }
            throw ServerStartFailure(reason: error)
        }
        try await LimenServerApplication.make(
            composition: composition, logger: logger, onServerRunning: onServerRunning
        )
        .run()
    }
}

/// Why the server could not start: the error of the step that failed, told as that error tells itself.
public struct ServerStartFailure: Error, LocalizedError {
    /// The step's own error.
    public let reason: any Error

    /// The step's error description, else its own text (which names the file or setting), never Foundation's
    /// generic sentence.
    public var errorDescription: String? {
        (reason as? any LocalizedError)?.errorDescription ?? String(describing: reason)
    }
}
