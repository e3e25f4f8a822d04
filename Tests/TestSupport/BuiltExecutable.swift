import Foundation

/// An executable of this package as `swift build` left it, for tests that run it as a subprocess.
public enum BuiltExecutable {
    /// The executable `name`: next to the test bundle (a test target that depends on the executable target has it
    /// built), else `<package>/.build/debug/<name>`.
    public static func url(named name: String) throws -> URL {
        let runnerDirectory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            runnerDirectory.appendingPathComponent(name),
            runnerDirectory.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0].path])
        }
        return found
    }
}
