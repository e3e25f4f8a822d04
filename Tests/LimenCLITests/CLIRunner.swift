import Foundation
import TestSupport

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

    /// The built `limen` binary (see ``BuiltExecutable``).
    static func executable() throws -> URL {
        try BuiltExecutable.url(named: "limen")
    }
}
