import Foundation
import LimenTestSupport

/// One `limen-server` process of a ``ScaleCluster``, on a port it keeps when a fault test kills it and starts it again.
actor ScaleNode {
    /// The port it listens on, across restarts.
    nonisolated let port: Int
    private let arguments: [String]
    private let environment: [String: String]
    private var process: RunningProcess

    /// Starts `limen-server serve` with `arguments` and `environment` on `port` (which `arguments` name); returns once
    /// it printed its banner.
    init(port: Int, arguments: [String], environment: [String: String]) async throws {
        self.port = port
        self.arguments = arguments
        self.environment = environment
        process = try await startServerProcess(arguments, environment: environment)
    }

    /// Whether the current process still runs.
    var isRunning: Bool { process.isRunning }

    /// What the current process printed on standard output (its start-up banner).
    var banner: String { String(decoding: process.standardOutput, as: UTF8.self) }

    /// Ends the process with SIGKILL, as a crash would (no graceful shutdown), and returns once it is gone.
    @discardableResult
    func kill() async -> Subprocess.Result {
        await process.kill()
    }

    /// Starts the node again, with the same settings on the same port, once the last process ended; returns once it
    /// printed its banner.
    func restart() async throws {
        process = try await startServerProcess(arguments, environment: environment)
    }

    /// Stops the process gracefully (SIGTERM) and returns its outcome.
    @discardableResult
    func stop() async -> Subprocess.Result {
        await process.stop()
    }
}
