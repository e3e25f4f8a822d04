import Foundation
import LimenTestSupport

/// Python scripts under `Tests/Peers` that play a peer (a relying party, a browser) against a live server.
enum PythonPeer {
    /// The repository's root, found from this file.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The script at `path`, relative to the repository's root.
    static func script(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent(path)
    }

    /// Runs python3 with `arguments` in the repository's root; its standard output, or
    /// ``SubprocessError/failed(program:status:standardError:)`` with its standard error. Output goes to files, so
    /// neither stream can fill a pipe and stall the script, and the wait suspends, so an in-process server keeps
    /// answering it.
    static func run(_ arguments: [String]) async throws -> Data {
        try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3"] + arguments, currentDirectory: repositoryRoot)
    }
}

extension PythonPeer {
    /// Runs the server `script` (relative to the repository's root) with a fresh directory and `arguments`, waits for
    /// its `READY` line, and runs `body` with the directory and the port it wrote to `DIR/port`; stops it in every path.
    static func serve(
        script: String,
        arguments: [String],
        environment: [String: String] = [:],
        _ body: (TemporaryDirectory, Int) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await Subprocess.withService(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", Self.script(script).path, directory.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, readyWhen: "READY",
            on: .standardOutput
        ) { _, _ in
            let port = Int((try? String(contentsOfFile: directory.path + "/port", encoding: .utf8)) ?? "") ?? 0
            try await body(directory, port)
        }
    }
}
