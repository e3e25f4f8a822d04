import Foundation
import LimenTestSupport
import Testing

/// The `limen-server` binary built next to the test bundle, if it is there.
let serverExecutableURL: URL? = {
    guard let directory = Bundle.main.executableURL?.deletingLastPathComponent() else { return nil }
    let url = directory.appendingPathComponent("limen-server")
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
}()

/// The `limen-server` binary built next to the test bundle; a test failure when it is missing.
func serverExecutable() throws -> URL {
    try #require(serverExecutableURL, "build limen-server first (swift build)")
}

/// Starts `limen-server serve` with `arguments` (and `environment` over this process's) and returns once it printed
/// its `limen login` line; the caller stops it.
func startServerProcess(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunningProcess {
    try await Subprocess.startService(
        try serverExecutable(), arguments: ["serve"] + arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
        readyWhen: "limen login", on: .standardOutput
    ).process
}

/// Runs `body` with `limen-server serve` started as ``startServerProcess(_:environment:)`` does, and stops the server
/// however `body` ends.
func withServerProcess<Result>(
    _ arguments: [String],
    environment: [String: String] = [:],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningProcess) async throws -> Result
) async throws -> Result {
    try await withStopping(
        try await startServerProcess(arguments, environment: environment), stop: { await $0.stop() }, body)
}
