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
