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

/// Reads `handle` until `marker` has been seen and the line holding it is complete, or `timeout` passes.
func readOutput(of handle: FileHandle, until marker: String, timeout: Duration) async -> String {
    await withTaskGroup(of: String?.self) { group in
        group.addTask {
            var text = ""
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return text }  // end of file: the process is gone
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.range(of: marker), text[range.upperBound...].contains("\n") { return text }
            }
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? "(timed out)"
    }
}
