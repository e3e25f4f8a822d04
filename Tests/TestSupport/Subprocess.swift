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

    /// Runs a program to completion, with `input` on its standard input; throws when it exits non-zero, with its
    /// standard error.
    public static func run(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        input: Data? = nil
    ) async throws -> Data {
        let result = try await capture(executable, arguments: arguments, environment: environment, input: input)
        guard result.status == 0 else {
            throw Failure(
                description: "\(executable.lastPathComponent) exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// Runs a program to completion, with `input` on its standard input, and returns its status and output, whatever
    /// the status.
    public static func capture(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        input: Data? = nil
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        // Output goes to files, not pipes: a daemon the program starts may inherit a pipe and keep it open.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-subprocess-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        let exited = Gate()
        process.terminationHandler = { _ in Task { await exited.open() } }
        try process.run()
        if let input, let inputPipe {
            inputPipe.fileHandleForWriting.write(input)
            try? inputPipe.fileHandleForWriting.close()
        }
        await exited.wait()
        let outData = (try? Data(contentsOf: outURL)) ?? Data()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(
            status: process.terminationStatus,
            standardOutput: outData,
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }
}
