import Foundation

/// Runs programs for tests: scripts that start peers, and the `limen` tool itself.
public enum Subprocess {
    /// The outcome of a finished program.
    public struct Result: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything written to standard output.
        public let standardOutput: Data
        /// Everything written to standard error.
        public let standardError: String
    }

    /// Why a program failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What the program wrote to standard error.
        public let description: String
    }

    /// Runs a program to completion; throws when it exits non-zero, with its standard error.
    public static func run(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil
    ) async throws -> Data {
        let result = try await capture(executable, arguments: arguments, environment: environment)
        guard result.status == 0 else {
            throw Failure(description: "\(executable.lastPathComponent) exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// Runs a program to completion and returns its status and output, whatever the status.
    public static func capture(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Blocking reads and waits run on their own threads, never on Swift's small cooperative pool.
        async let stdout = onThread { output.fileHandleForReading.readDataToEndOfFile() }
        async let stderr = onThread { error.fileHandleForReading.readDataToEndOfFile() }
        let (outData, errData) = await (stdout, stderr)
        await onThread { process.waitUntilExit() }
        return Result(
            status: process.terminationStatus,
            standardOutput: outData,
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    private static func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
