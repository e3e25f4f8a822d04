import Foundation
import LimenTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program in a pseudo-terminal: the test reads what a person would see (the terminal's echo included) and types
/// each answer once its prompt shows.
final class PseudoTerminal {
    /// Everything the terminal showed so far.
    private(set) var transcript = ""
    private var searched: String.Index
    private let process: Process
    private let master: Int32
    /// Whether a read found nothing for 60 seconds: the program hangs, and ``finish()`` kills it.
    private var stalled = false

    /// Starts `executable` with the terminal as its standard input, output and error.
    init(_ executable: URL, arguments: [String], environment: [String: String]) async throws {
        var master: Int32 = 0
        var slave: Int32 = 0
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.ENOTTY) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        (process.standardInput, process.standardOutput, process.standardError) = (terminal, terminal, terminal)
        self.master = master
        searched = transcript.startIndex
        try await Subprocess.launch(process)
        try terminal.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Reads until `text` shows after what earlier waits found; `false` when the program ends first (or shows
    /// nothing for 60 seconds: a bound against a hung test, not a synchronisation).
    func wait(for text: String) -> Bool {
        while true {
            if let found = transcript.range(of: text, range: searched..<transcript.endIndex) {
                searched = found.upperBound
                return true
            }
            guard readMore() else { return false }
        }
    }

    /// Types `line` and Enter.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads to the end and returns the exit status; a program that showed nothing for 60 seconds is killed first.
    func finish() -> Int32 {
        while readMore() {}
        if stalled, process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func readMore() -> Bool {
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 60_000) > 0 else {
            stalled = true
            return false
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        let offset = transcript.distance(from: transcript.startIndex, to: searched)
        transcript += String(decoding: buffer[..<count], as: UTF8.self)
        searched = transcript.index(transcript.startIndex, offsetBy: offset)
        return true
    }
}
