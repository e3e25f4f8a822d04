import Foundation

extension Subprocess {
    /// Starts a program and returns at once, for tests that talk to it while it runs; prefer
    /// ``withRunning(_:arguments:environment:currentDirectory:isolation:_:)``, which stops it however the test ends.
    ///
    /// Standard output and standard error are pipes, read on threads of their own: fine for programs that start no
    /// daemon (a daemon inheriting a pipe would keep it open, and the output would never end — use
    /// ``capture(_:arguments:environment:currentDirectory:input:timeout:)`` for those).
    public static func start(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) async throws -> RunningProcess {
        let process = makeProcess(executable, arguments, environment, currentDirectory)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let running = RunningProcess(process: process, program: executable.lastPathComponent)
        process.terminationHandler = { [exited = running.exited] _ in Task { await exited.open() } }
        try await launch(process)
        // The child holds its own copies; closing ours lets the readers see end of file when it exits.
        try? output.fileHandleForWriting.close()
        try? error.fileHandleForWriting.close()
        running.output.read(output.fileHandleForReading)
        running.error.read(error.fileHandleForReading)
        return running
    }

    /// Starts a program, runs `body` with it, and stops it however `body` ends: returned, threw, or cancelled.
    ///
    /// ```swift
    /// let result = try await Subprocess.withRunning(limen, arguments: ["login", …]) { running in
    ///     let url = try await running.firstLine { $0.hasPrefix("http") }
    ///     …
    ///     return try await running.wait()
    /// }
    /// ```
    public static func withRunning<Result>(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningProcess) async throws -> Result
    ) async throws -> Result {
        let running = try await start(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory)
        return try await withStopping(running, stop: { await $0.stop() }, body)
    }

    /// Starts a long-running program (a server, a proxy, a peer) and returns once a line on `stream` contains
    /// `marker`, with that line; when the program ends or `timeout` passes first, it is stopped and the error thrown.
    /// The caller stops it (``RunningProcess/stop(grace:)``), or uses ``withStopping(_:stop:isolation:_:)``.
    public static func startService(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        readyWhen marker: String,
        on stream: RunningProcess.Stream,
        timeout: Duration = defaultTimeout
    ) async throws -> (process: RunningProcess, readyLine: String) {
        let running = try await start(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory)
        do {
            return (running, try await running.firstLine(on: stream, timeout: timeout) { $0.contains(marker) })
        } catch {
            await running.stop()
            throw error
        }
    }

    /// Starts a long-running program as ``startService(_:arguments:environment:currentDirectory:readyWhen:on:timeout:)``
    /// does, runs `body` with it and its ready line, and stops it however `body` ends.
    public static func withService<Result>(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        readyWhen marker: String,
        on stream: RunningProcess.Stream,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningProcess, String) async throws -> Result
    ) async throws -> Result {
        let (running, line) = try await startService(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
            readyWhen: marker, on: stream)
        return try await withStopping(running, stop: { await $0.stop() }, { try await body($0, line) })
    }
}

/// A program started by ``Subprocess/start(_:arguments:environment:currentDirectory:)``.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public final class RunningProcess: Sendable {
    /// One of the program's output streams.
    public enum Stream: Sendable {
        /// Standard output.
        case standardOutput
        /// Standard error.
        case standardError
    }

    /// The program's name, for messages.
    public let program: String
    /// Whether the program still runs.
    public var isRunning: Bool { process.isRunning }
    /// Standard output so far.
    public var standardOutput: Data { output.buffer.withLock { $0 } }
    /// Standard error so far.
    public var standardError: String { String(decoding: error.buffer.withLock { $0 }, as: UTF8.self) }

    fileprivate let exited = Gate()
    fileprivate let output = OutputReader()
    fileprivate let error = OutputReader()
    private let process: Process

    fileprivate init(process: Process, program: String) {
        self.process = process
        self.program = program
    }

    /// The first line (without its newline) on `stream` that `predicate` accepts, from the lines not read yet.
    ///
    /// Throws ``SubprocessError/timedOut(program:waitingFor:after:output:)`` when `timeout` passes on `clock` first
    /// (the stream is closed then: a test reads no more after a time-out), ``SubprocessError/ended(program:waitingFor:output:)``
    /// when the stream ends first, or `CancellationError`. Read each stream from one task at a time.
    public func firstLine(
        on stream: Stream = .standardError,
        timeout: Duration = Subprocess.defaultTimeout,
        clock: some Clock<Duration> = ContinuousClock(),
        where predicate: @escaping @Sendable (String) -> Bool = { _ in true }
    ) async throws -> String {
        let lines = reader(stream).lines
        let found = try await withDeadline(timeout, clock: clock) { () -> String? in
            for await line in lines where predicate(line) { return line }
            return nil
        }
        try Task.checkCancellation()
        let waitingFor = "awaited line on \(stream == .standardError ? "standard error" : "standard output")"
        switch found {
        case .some(.some(let line)): return line
        case .some(.none): throw SubprocessError.ended(program: program, waitingFor: waitingFor, output: written)
        case .none:
            throw SubprocessError.timedOut(program: program, waitingFor: waitingFor, after: timeout, output: written)
        }
    }

    /// Waits for the program to exit and for its output to end, and returns the outcome; throws
    /// ``SubprocessError/timedOut(program:waitingFor:after:output:)`` when `timeout` passes on `clock` first (the
    /// program keeps running: ``stop(grace:)`` ends it), or `CancellationError`.
    public func wait(
        timeout: Duration = Subprocess.defaultTimeout,
        clock: some Clock<Duration> = ContinuousClock()
    ) async throws -> Subprocess.Result {
        let ended = try await withDeadline(timeout, clock: clock) {
            await self.ended()
            return true
        }
        try Task.checkCancellation()
        guard ended != nil else {
            throw SubprocessError.timedOut(program: program, waitingFor: "its exit", after: timeout, output: written)
        }
        return result
    }

    /// Sends SIGTERM, waits for the program to exit (SIGKILL after `grace`), and returns the outcome. It finishes even
    /// when the calling task is cancelled, and a second stop returns the same outcome.
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Subprocess.Result {
        await Task {
            if process.isRunning { process.terminate() }
            let exitedInTime = try? await withDeadline(grace) {
                await self.exited.wait()
                return true
            }
            if exitedInTime == nil { signalKill() }
            return await finished()
        }.value
    }

    /// Ends the program with SIGKILL, as a crash or the kernel's OOM killer would (no graceful shutdown), waits for it
    /// and returns the outcome; it finishes even when the calling task is cancelled.
    @discardableResult
    public func kill() async -> Subprocess.Result {
        await Task {
            signalKill()
            return await finished()
        }.value
    }

    /// Waits (uncancelled) for the exit, then for the output's end for at most a few seconds (a daemon the program
    /// started may hold it open), and returns the outcome.
    private func finished() async -> Subprocess.Result {
        await exited.wait()
        _ = try? await withDeadline(.seconds(5)) { await self.ended() }
        return result
    }

    private func signalKill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    private func ended() async {
        await exited.wait()
        await output.done.wait()
        await error.done.wait()
    }

    private var result: Subprocess.Result {
        Subprocess.Result(
            status: process.terminationStatus,
            endedBySignal: process.terminationReason == .uncaughtSignal,
            standardOutput: standardOutput,
            standardError: standardError
        )
    }

    /// Both streams so far, for messages.
    private var written: String {
        standardError + String(decoding: standardOutput, as: UTF8.self)
    }

    private func reader(_ stream: Stream) -> OutputReader {
        stream == .standardError ? error : output
    }
}

/// One output stream of a running program: read to its end on a thread of its own, kept whole and split into lines.
private final class OutputReader: Sendable {
    let buffer = Locked(Data())
    let done = Gate()
    let lines: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation

    init() {
        (lines, sink) = AsyncStream.makeStream(of: String.self)
    }

    /// Reads `handle` to its end on a thread of its own, appending to ``buffer`` and yielding complete lines.
    func read(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.withLock { $0.append(chunk) }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    sink.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            if !pending.isEmpty { sink.yield(String(decoding: pending, as: UTF8.self)) }
            sink.finish()
            try? handle.close()
            Task { await done.open() }
        }
        thread.name = "limen.subprocess-reader"
        thread.start()
    }
}
