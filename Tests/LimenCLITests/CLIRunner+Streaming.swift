import Foundation
import LimenTestSupport
import TestSupport

extension CLIRunner {
    /// The environment every `limen` run gets: this process's, with `LIMEN_CONFIG_DIR` set, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LIMEN_CONFIG_DIR"] = configDirectory.path
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `limen arguments…`, with `body` talking to it while it runs, and stops it however `body` ends.
    func withLaunched<Result>(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningProcess) async throws -> Result
    ) async throws -> Result {
        try await Subprocess.withRunning(
            try Self.executable(), arguments: arguments, environment: environment(extra), body)
    }

    /// Runs `limen arguments…` to its end.
    func complete(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Subprocess.Result {
        try await withLaunched(arguments, environment: extra) { try await $0.wait() }
    }
}

extension Subprocess.Result {
    /// Standard output without surrounding whitespace.
    var trimmedOutput: String { outputText.trimmingCharacters(in: .whitespacesAndNewlines) }
    /// Standard error split into non-empty lines.
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
}
