import Foundation
import LimenServerStorage
import LimenTestSupport

@testable import LimenServer
@testable import LimenServerCore

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
    /// Signs Ada up on `provider` with `password` and runs the app `script` (relative to the repository's root) as the
    /// CLI client against `issuer`, signing in as her; her user and the summary the script prints (JSON with snake_case
    /// keys).
    static func runSignedInApp<Summary: Decodable>(
        _ script: URL,
        provider: ServerComposition,
        issuer: String,
        password: String = "correct horse battery",
        as summary: Summary.Type
    ) async throws -> (user: UserRecord, summary: Summary) {
        let user = try await provider.accounts.signUp(
            email: "ada@example.com", password: password, name: "Ada", origin: RequestOrigin())
        let output = try await run([
            script.path, "--issuer", issuer, "--client-id", SeedClients.cliClientID,
            "--redirect-uri", "http://127.0.0.1:9/callback", "--email", "ada@example.com", "--password=\(password)",
        ])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (user, try decoder.decode(Summary.self, from: output))
    }

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
