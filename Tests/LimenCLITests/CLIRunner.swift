import Foundation

/// What one run of the `limen` binary produced.
struct CLIResult {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// Standard error split into non-empty lines.
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
}

/// Runs the built `limen` executable as a subprocess, with `LIMEN_CONFIG_DIR` pointing at a fresh directory.
struct CLIRunner {
    /// A temporary credentials directory, unique to this runner.
    let configDirectory: URL

    init() throws {
        configDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("limen-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
    }

    /// Removes the credentials directory.
    func cleanUp() {
        try? FileManager.default.removeItem(at: configDirectory)
    }

    /// The `limen` binary: next to the test bundle (the test target depends on the executable), else
    /// `<package>/.build/debug/limen`.
    static func executable() throws -> URL {
        let runnerDirectory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            runnerDirectory.appendingPathComponent("limen"),
            runnerDirectory.deletingLastPathComponent().appendingPathComponent("limen"),
            packageRoot.appendingPathComponent(".build/debug/limen"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0].path])
        }
        return found
    }

    /// Runs `limen arguments…` to the end, killing it after `timeout` seconds.
    func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> CLIResult {
        try start(arguments).finish(timeout: timeout)
    }

    /// Starts `limen arguments…` and returns at once, for tests that talk to it while it runs.
    func start(_ arguments: [String]) throws -> RunningCLI {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIMEN_CONFIG_DIR"] = configDirectory.path
        process.environment = environment
        let outputs = FileManager.default.temporaryDirectory
            .appendingPathComponent("limen-cli-output-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let outURL = outputs.appendingPathComponent("stdout")
        let errURL = outputs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try out.close()
        try err.close()
        return RunningCLI(process: process, outputs: outputs)
    }
}

/// A `limen` process started by ``CLIRunner/start(_:)``; its output goes to files read while it runs.
struct RunningCLI {
    let process: Process
    let outputs: URL

    /// Standard error so far.
    var standardError: String {
        (try? Data(contentsOf: outputs.appendingPathComponent("stderr"))).map { String(decoding: $0, as: UTF8.self) }
            ?? ""
    }

    /// Waits until standard error holds a complete line and returns it, or `nil` after `timeout` seconds or when
    /// the process exits first.
    func firstErrorLine(timeout: TimeInterval = 30) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = standardError
            if let newline = text.firstIndex(of: "\n") { return String(text[..<newline]) }
            if !process.isRunning { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Waits for the process to exit (terminating it after `timeout` seconds) and returns what it printed.
    func finish(timeout: TimeInterval = 60) throws -> CLIResult {
        defer { try? FileManager.default.removeItem(at: outputs) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            standardOutput: String(
                decoding: try Data(contentsOf: outputs.appendingPathComponent("stdout")), as: UTF8.self),
            standardError: standardError
        )
    }
}
