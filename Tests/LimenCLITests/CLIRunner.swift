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

    /// Runs `limen arguments…`, killing it after `timeout` seconds.
    func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> CLIResult {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIMEN_CONFIG_DIR"] = configDirectory.path
        process.environment = environment
        let outURL = configDirectory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = configDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }
}
