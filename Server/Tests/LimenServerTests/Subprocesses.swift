import Foundation
import NIOConcurrencyHelpers
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

/// The `limen-server` binary built next to the test bundle, if it is there.
let serverExecutableURL: URL? = {
    guard let directory = Bundle.main.executableURL?.deletingLastPathComponent() else { return nil }
    let url = directory.appendingPathComponent("limen-server")
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
}()

/// The `limen-server` binary built next to the test bundle; a test failure when it is missing.
func serverExecutable() throws -> URL {
    try #require(serverExecutableURL, "build limen-server first (swift build)")
}

/// Reads `handle` until `marker` has been seen and the line holding it is complete, or `timeout` passes — whichever is
/// first, even while the reading thread is still blocked in a read (a process that prints nothing and never exits
/// cannot hang the test). What was read by then is returned; a time-out returns it with "(timed out)" appended.
func readOutput(of handle: FileHandle, until marker: String, timeout: Duration) async -> String {
    let answer = OnceAnswer()
    return await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
        answer.set(continuation)
        let reader = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }  // end of file: the process is gone
                let text = answer.append(String(decoding: chunk, as: UTF8.self))
                if let range = text.range(of: marker), text[range.upperBound...].contains("\n") { break }
            }
            answer.finish(timedOut: false)
        }
        reader.name = "limen.test-output-reader"
        reader.start()
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            answer.finish(timedOut: true)
        }
    }
}

/// The text read so far and the continuation waiting for it, resumed exactly once.
private final class OnceAnswer: Sendable {
    private struct State {
        var text = ""
        var continuation: CheckedContinuation<String, Never>?
    }
    private let state = NIOLockedValueBox(State())

    func set(_ continuation: CheckedContinuation<String, Never>) {
        state.withLockedValue { $0.continuation = continuation }
    }

    /// Appends `chunk` and returns the whole text so far.
    func append(_ chunk: String) -> String {
        state.withLockedValue {
            $0.text += chunk
            return $0.text
        }
    }

    /// Resumes the waiting caller, the first time only.
    func finish(timedOut: Bool) {
        let resume: (CheckedContinuation<String, Never>, String)? = state.withLockedValue {
            guard let continuation = $0.continuation else { return nil }
            $0.continuation = nil
            return (continuation, timedOut ? $0.text + "(timed out)" : $0.text)
        }
        if let (continuation, text) = resume { continuation.resume(returning: text) }
    }
}
