import Foundation
import LimenTestSupport

/// A Python peer of `Tests/Peers` that receives messages on 127.0.0.1, keeps each as `DIR/mail/<n>.<extension>` and
/// prints `KEPT <n>` once it is written (the SMTP server, the webhook receiver): started with a fresh directory, ready
/// once it prints `READY <port>`, and read message by message without polling.
public final class KeepingPeer: Sendable {
    /// Its port.
    public let port: Int
    /// Where it keeps the messages (and whatever else it writes, such as its CA).
    public let directory: URL
    private let running: RunningProcess
    private let fileExtension: String
    private let looked = Locked(0)

    /// Starts `script` (relative to `Tests/Peers`) with a new directory, `arguments` after it and `environment` added
    /// to this process's, and waits for its `READY <port>` line.
    public static func start(
        script: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        keeping fileExtension: String
    ) async throws -> KeepingPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-peer-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers").appendingPathComponent(script)
        let (running, line) = try await Subprocess.startService(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", path.path, directory.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            readyWhen: "READY ", on: .standardOutput)
        guard let port = Int(line.split(separator: " ").last ?? "") else {
            await running.stop()
            try? FileManager.default.removeItem(at: directory)
            throw SubprocessError.failed(program: script, status: -1, standardError: "no port in \(line)")
        }
        return KeepingPeer(port: port, directory: directory, running: running, fileExtension: fileExtension)
    }

    private init(port: Int, directory: URL, running: RunningProcess, fileExtension: String) {
        (self.port, self.directory, self.running, self.fileExtension) = (port, directory, running, fileExtension)
    }

    /// The next kept message after those already read, waiting up to `timeout` for its `KEPT` line: Limen Server
    /// sends from its outbox after it answered.
    public func next(timeout: Duration = .seconds(30)) async throws -> Data {
        let number = looked.withLock {
            $0 += 1
            return $0
        }
        let file = directory.appendingPathComponent("mail/\(number).\(fileExtension)")
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = try await running.firstLine(on: .standardOutput, timeout: timeout) { line in
                line.hasPrefix("KEPT ") && Int(line.dropFirst("KEPT ".count)) ?? 0 >= number
            }
        }
        return try Data(contentsOf: file)
    }

    /// Stops it and removes what it kept.
    public func stop() async {
        _ = await running.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
