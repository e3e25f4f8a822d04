import Foundation

extension Subprocess {
    /// Starts a program and returns at once, for tests that talk to it while it runs.
    ///
    /// Standard output and standard error are pipes, read on threads of their own: fine for programs that start no
    /// daemon (a daemon inheriting a pipe would keep it open, and the output would never end — use
    /// ``run(_:arguments:environment:)`` for those).
    ///
    /// ```swift
    /// let running = try Subprocess.start(limen, arguments: ["login", …], environment: environment)
    /// for await line in running.errorLines where line.hasPrefix("http") { … }
    /// let result = await running.wait()
    /// ```
    public static func start(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil
    ) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let running = RunningProcess(process: process)
        process.terminationHandler = { [exited = running.exited] _ in Task { await exited.open() } }
        try process.run()
        // The child holds its own copies; closing ours lets the readers see end of file when it exits.
        try? output.fileHandleForWriting.close()
        try? error.fileHandleForWriting.close()
        running.read(
            output.fileHandleForReading, into: running.output, lines: running.outputSink, done: running.outputDone)
        running.read(error.fileHandleForReading, into: running.error, lines: running.lineSink, done: running.errorDone)
        return running
    }
}

/// A program started by ``Subprocess/start(_:arguments:environment:)``.
public final class RunningProcess: Sendable {
    /// Standard error, line by line (without the newline), as the program writes it; ends when the program closes
    /// its standard error. Iterate it from one task only.
    public let errorLines: AsyncStream<String>
    /// Standard output, line by line, likewise.
    public let outputLines: AsyncStream<String>
    /// The process identifier.
    public var processIdentifier: Int32 { process.processIdentifier }

    fileprivate let exited = Gate()
    fileprivate let outputDone = Gate()
    fileprivate let errorDone = Gate()
    fileprivate let output = Locked(Data())
    fileprivate let error = Locked(Data())
    fileprivate let lineSink: AsyncStream<String>.Continuation
    fileprivate let outputSink: AsyncStream<String>.Continuation
    private let process: Process

    fileprivate init(process: Process) {
        self.process = process
        (errorLines, lineSink) = AsyncStream.makeStream(of: String.self)
        (outputLines, outputSink) = AsyncStream.makeStream(of: String.self)
    }

    /// Standard error so far.
    public var standardError: String { String(decoding: error.withLock { $0 }, as: UTF8.self) }

    /// Waits for the program to exit and for its output to end, and returns the outcome.
    public func wait() async -> Subprocess.Result {
        await exited.wait()
        await outputDone.wait()
        await errorDone.wait()
        return Subprocess.Result(
            status: process.terminationStatus,
            standardOutput: output.withLock { $0 },
            standardError: standardError
        )
    }

    /// Sends SIGTERM (a graceful stop for servers, a clean-up after a failed test); ``wait()`` still returns the outcome.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Reads `handle` to its end on a thread of its own, appending to `buffer` and yielding complete lines.
    fileprivate func read(
        _ handle: FileHandle,
        into buffer: Locked<Data>,
        lines: AsyncStream<String>.Continuation?,
        done: Gate
    ) {
        let thread = Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.withLock { $0.append(chunk) }
                guard let lines else { continue }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            if let lines {
                if !pending.isEmpty { lines.yield(String(decoding: pending, as: UTF8.self)) }
                lines.finish()
            }
            try? handle.close()
            Task { await done.open() }
        }
        thread.name = "limen.subprocess-reader"
        thread.start()
    }
}
