import Foundation

/// Runs the built `limen` executable as a subprocess (`CLIRunner+Streaming.swift`), with `LIMEN_CONFIG_DIR` pointing
/// at a fresh directory.
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
}
