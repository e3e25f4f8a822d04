import Foundation

/// A long-running child process a test starts (a `limen-server` node, nginx): ready once a marker line appears on its
/// standard output or error, the other stream written to a log file, ended by ``stop()`` (SIGTERM).
struct ServiceProcess {
    /// Which stream announces that the process is ready.
    enum ReadyStream {
        case standardOutput
        case standardError
    }

    /// A process that ended or stayed silent before it was ready.
    struct NotReady: Error, CustomStringConvertible {
        let name: String
        let output: String
        let log: String
        var description: String { "\(name) did not start: \(output)\n\(log)" }
    }

    /// A name for messages.
    let name: String
    /// The file holding the stream that does not announce readiness.
    let logPath: String
    private let process: Process
    /// Kept open so that later lines on the announcing stream never meet a closed pipe (SIGPIPE).
    private let announcements: Pipe

    /// Starts `executable` and waits until `marker` has been printed on `stream`; on failure the process is ended and
    /// ``NotReady`` tells what it printed.
    static func start(
        name: String,
        executable: URL,
        arguments: [String],
        environment: [String: String] = [:],
        readyWhen marker: String,
        on stream: ReadyStream,
        logPath: String
    ) async throws -> ServiceProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let announcements = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stream == .standardOutput ? announcements : log
        process.standardError = stream == .standardError ? announcements : log
        try process.run()
        let service = ServiceProcess(name: name, logPath: logPath, process: process, announcements: announcements)
        let output = await readOutput(of: announcements.fileHandleForReading, until: marker, timeout: .seconds(60))
        guard output.contains(marker) else {
            _ = await service.stop()
            throw NotReady(name: name, output: output, log: service.log)
        }
        return service
    }

    /// What the process wrote to its log so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM (if it still runs) and waits for the process to end; its exit status.
    @discardableResult
    func stop() async -> Int32 {
        if process.isRunning { process.terminate() }
        await waitForExit(process)
        return process.terminationStatus
    }

    /// Ends the process with SIGKILL, as a crash or the kernel's OOM killer would (no graceful shutdown), and waits
    /// for it.
    func kill() async {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        await waitForExit(process)
    }
}
