import Foundation
import Testing

/// Waits for `process` to end, off the cooperative pool.
func waitForExit(_ process: Process) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            process.waitUntilExit()
            continuation.resume()
        }
    }
}

/// What a finished subprocess left.
struct SubprocessResult: Sendable {
    /// The exit status.
    let status: Int32
    /// Everything it wrote to standard output.
    let output: String
}

/// Runs `arguments` through `/usr/bin/env` (so `python3` is found on the `PATH`) in `directory`, with `environment`
/// added to this process's, and returns its standard output (collected in a temporary file, so no pipe read can be
/// interrupted); standard error goes to the test's. The wait happens off the cooperative pool, so an in-process
/// server keeps answering the subprocess.
func runSubprocess(
    _ arguments: [String],
    in directory: URL,
    environment: [String: String] = [:]
) async throws -> SubprocessResult {
    let outputFile = try TemporaryDirectory()
    defer { outputFile.remove() }
    let outputURL = URL(fileURLWithPath: outputFile.path).appendingPathComponent("stdout")
    try #require(FileManager.default.createFile(atPath: outputURL.path, contents: nil))
    let output = try FileHandle(forWritingTo: outputURL)
    defer { try? output.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
    process.standardOutput = output
    try process.run()
    await waitForExit(process)
    let text = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
    return SubprocessResult(status: process.terminationStatus, output: text)
}
