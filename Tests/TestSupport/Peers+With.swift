import Foundation
import LimenTestSupport

extension GlewlwydPeer {
    /// Starts glewlwyd (as ``start()``), runs `body` with it, and stops it however `body` ends.
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (GlewlwydPeer) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(), stop: { await $0.stop() }, body)
    }
}

extension LimenServerPeer {
    /// Starts limen-server (on `port`, with `settings`, flags of `limen-server serve`, and `clients`, the arguments of
    /// each `limen-server clients add` run first), runs `body` with it, and stops it however `body` ends; a test that
    /// checks the exit status stops it itself first (a second stop returns the same status). It waits first while
    /// ``running`` servers are up.
    public static func with<Result>(
        port: Int = 0,
        settings: [String] = [],
        clients: [[String]] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LimenServerPeer) async throws -> Result
    ) async throws -> Result {
        try await running.withSlot {
            try await withStopping(
                try await start(port: port, settings: settings, clients: clients), stop: { await $0.stop() }, body)
        }
    }

    /// How many servers the tests run at once: twice the processors. A parallel run starts every test together, and a
    /// hundred servers on two cores answer their clients' first requests only after those time out.
    static let running = Slots(2 * ProcessInfo.processInfo.activeProcessorCount)
}

extension LimenServerPeer {
    /// ``with(port:settings:isolation:_:)`` with `configuration` (YAML) written to a configuration file the server reads
    /// (`--config`), deleted afterwards: for the settings only a file holds, such as `profile_schema`.
    public static func with<Result>(
        configuration: String,
        port: Int = 0,
        settings: [String] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LimenServerPeer) async throws -> Result
    ) async throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limen-server-\(UUID()).yaml")
        try Data(configuration.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await with(port: port, settings: ["--config", file.path] + settings, body)
    }
}
