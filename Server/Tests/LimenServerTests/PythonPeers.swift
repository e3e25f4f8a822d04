import Foundation

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

    /// Whether `LIMEN_REQUIRE_PEERS=1` (CI): a missing peer must fail its test rather than skip it.
    static var peersRequired: Bool {
        ProcessInfo.processInfo.environment["LIMEN_REQUIRE_PEERS"] == "1"
    }

    /// Why python3 cannot import `modules` (comma-separated), with `install` saying how to fix it; `nil` when it can.
    static func missingModulesReason(_ modules: String, install: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "python3 is not installed" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "python3 cannot import \(modules): \(install)"
    }

    /// Runs python3 with `arguments` in the repository's root; its standard output, or ``Failure`` with its standard
    /// error. Output goes to files, so neither stream can fill a pipe and stall the script, and the wait is off the
    /// cooperative pool, so an in-process server keeps answering it.
    static func run(_ arguments: [String]) async throws -> Data {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outURL = URL(fileURLWithPath: directory.path + "/stdout")
        let errURL = URL(fileURLWithPath: directory.path + "/stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        await waitForExit(process)
        guard process.terminationStatus == 0 else {
            throw Failure(
                script: arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "python3",
                message: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            )
        }
        return try Data(contentsOf: outURL)
    }

    /// A script failed; its standard error.
    struct Failure: Error, CustomStringConvertible {
        let script: String
        let message: String
        var description: String { "\(script) failed: \(message)" }
    }
}

extension PythonPeer {
    /// Runs the server `script` (relative to the repository's root) with a fresh directory and `arguments`, waits for
    /// its `READY` line, and runs `body` with the directory and the port it wrote to `DIR/port`; stops it in every path.
    static func serve(
        _ name: String,
        script: String,
        arguments: [String],
        environment: [String: String] = [:],
        _ body: (TemporaryDirectory, Int) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = try await ServiceProcess.start(
            name: name,
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", Self.script(script).path, directory.path] + arguments,
            environment: environment,
            readyWhen: "READY", on: .standardOutput, logPath: directory.path + "/log")
        let port = Int((try? String(contentsOfFile: directory.path + "/port", encoding: .utf8)) ?? "") ?? 0
        do {
            try await body(directory, port)
        } catch {
            await process.stop()
            throw error
        }
        await process.stop()
    }
}
