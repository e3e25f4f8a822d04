import Foundation

/// Runs programs for tests: scripts that start peers, the `limen` and `limen-server` tools, nginx, Python peers.
///
/// Every wait has a deadline (``defaultTimeout`` unless the caller gives one), so a program that hangs or stays silent
/// fails its test with ``SubprocessError/timedOut(program:waitingFor:after:output:)`` instead of hanging the run; and
/// ``withRunning(_:arguments:environment:currentDirectory:isolation:_:)`` stops the program however its body ends.
///
/// Part of LimenTestSupport, Limen's own test support (used by the SDK's and the server's tests); not a stable API.
public enum Subprocess {
    /// How long a wait lasts unless the caller says otherwise: only a guard against a hung run (the whole suite runs
    /// at once, so on a loaded machine a correct program may take seconds).
    public static let defaultTimeout: Duration = .seconds(120)

    /// The outcome of a finished program.
    public struct Result: Sendable {
        /// The exit status, or the signal's number when a signal ended the program.
        public let status: Int32
        /// Whether a signal ended the program (SIGTERM from a stop, SIGKILL) rather than its own exit.
        public let endedBySignal: Bool
        /// Everything written to standard output.
        public let standardOutput: Data
        /// Everything written to standard error.
        public let standardError: String

        /// Standard output as text.
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// Runs a program to completion, with `input` on its standard input; its standard output, or
    /// ``SubprocessError/failed(program:status:standardError:)`` when it does not exit 0.
    public static func run(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        input: Data? = nil,
        timeout: Duration = defaultTimeout
    ) async throws -> Data {
        let result = try await capture(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
            input: input, timeout: timeout)
        guard result.status == 0, !result.endedBySignal else {
            throw SubprocessError.failed(
                program: executable.lastPathComponent, status: result.status, standardError: result.standardError)
        }
        return result.standardOutput
    }

    /// Runs a program to completion, with `input` on its standard input, and returns its status and output, whatever
    /// the status. Output goes to files, not pipes, so a daemon the program starts may keep its copies open. When
    /// `timeout` passes first, the program is killed and ``SubprocessError/timedOut(program:waitingFor:after:output:)``
    /// thrown.
    public static func capture(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        input: Data? = nil,
        timeout: Duration = defaultTimeout
    ) async throws -> Result {
        let process = makeProcess(executable, arguments, environment, currentDirectory)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-subprocess-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        let exited = Gate()
        process.terminationHandler = { _ in Task { await exited.open() } }
        try await launch(process)
        if let input, let inputPipe {
            inputPipe.fileHandleForWriting.write(input)
            try? inputPipe.fileHandleForWriting.close()
        }
        let standardError = { String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self) }
        guard
            try await withDeadline(
                timeout,
                {
                    await exited.wait()
                    return true
                }) != nil
        else {
            try Task.checkCancellation()
            _ = kill(process.processIdentifier, SIGKILL)
            await Task { await exited.wait() }.value
            throw SubprocessError.timedOut(
                program: executable.lastPathComponent, waitingFor: "its exit", after: timeout,
                output: standardError())
        }
        try Task.checkCancellation()
        return Result(
            status: process.terminationStatus,
            endedBySignal: process.terminationReason == .uncaughtSignal,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: standardError()
        )
    }

    /// Starts `process` (configured by the caller: a pseudo-terminal, say) from a thread of its own with no signal
    /// blocked. A child inherits the signal mask of the thread that starts it, and the threads tasks run on
    /// (libdispatch's workers) block SIGTERM: started from a task with `process.run()`, a child that installs no
    /// handler of its own (`sleep`, a Python script, the `limen` tool) would never see a stop's SIGTERM.
    public static func launch(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                var unblocked = sigset_t()
                sigemptyset(&unblocked)
                pthread_sigmask(SIG_SETMASK, &unblocked, nil)
                continuation.resume(with: Swift.Result { try ProcessStart.run(process) })
            }
            thread.name = "limen.subprocess-launcher"
            thread.start()
        }
    }

    /// A process for `executable`, not started, reading nothing on its standard input.
    static func makeProcess(
        _ executable: URL,
        _ arguments: [String],
        _ environment: [String: String]?,
        _ currentDirectory: URL?
    ) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

/// Why a program run by ``Subprocess`` failed a test.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum SubprocessError: Error, Equatable, CustomStringConvertible {
    /// The program exited with a status other than 0, or a signal ended it.
    case failed(program: String, status: Int32, standardError: String)
    /// The deadline passed before what the test waited for (a line, the program's exit).
    case timedOut(program: String, waitingFor: String, after: Duration, output: String)
    /// The stream ended (the program closed it or exited) before the line the test waited for.
    case ended(program: String, waitingFor: String, output: String)

    /// Says what failed, with what the program wrote.
    public var description: String {
        switch self {
        case .failed(let program, let status, let standardError):
            "\(program) exited \(status): \(standardError)"
        case .timedOut(let program, let waitingFor, let after, let output):
            "\(program): no \(waitingFor) within \(after); it wrote: \(output)"
        case .ended(let program, let waitingFor, let output):
            "\(program) ended its output before \(waitingFor); it wrote: \(output)"
        }
    }
}
