import Foundation
import LimenTestSupport
import LimenWire

/// A real HTTPS webhook receiver (`Tests/Peers/webhook/receiver.py`) on 127.0.0.1 that checks each POST's
/// `Limen-Signature` on its own and keeps the bodies, for tests where Limen Server sends a code by SMS
/// (``settings`` and ``configuration`` give the server its URL, CA and secret).
public final class SMSSink: Sendable {
    /// The secret the receiver checks signatures with.
    public static let secret = "an SMS webhook secret of more than 32 characters"
    /// Why it cannot run here, or `nil` when it can.
    public static let unavailableReason = Peers.missingPythonModules(
        "cryptography", install: "pip install cryptography")

    /// Its port.
    public let port: Int
    /// Where it keeps the messages and its CA.
    public let directory: URL
    private let running: RunningProcess
    private let looked = Locked(0)

    /// The `limen-server serve` flags that send codes by SMS here, trusting the receiver's CA.
    public var settings: [String] {
        [
            "--sms-url", "https://localhost:\(port)/sms", "--mail-ca-file",
            directory.appendingPathComponent("ca.pem").path,
        ]
    }

    /// The configuration file (YAML) holding the signing secret, which no flag may carry.
    public var configuration: String { "sms_webhook_secret: \"\(Self.secret)\"\n" }

    /// Starts the receiver and waits for its `READY <port>` line.
    public static func start() async throws -> SMSSink {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-sms-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers/webhook/receiver.py")
        let (running, line) = try await Subprocess.startService(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path, directory.path],
            environment: ProcessInfo.processInfo.environment.merging(["LIMEN_TEST_WEBHOOK_SECRET": secret]) { $1 },
            readyWhen: "READY ", on: .standardOutput)
        guard let port = Int(line.split(separator: " ").last ?? "") else {
            await running.stop()
            try? FileManager.default.removeItem(at: directory)
            throw SubprocessError.failed(program: "receiver.py", status: -1, standardError: "no port in \(line)")
        }
        return SMSSink(port: port, directory: directory, running: running)
    }

    private init(port: Int, directory: URL, running: RunningProcess) {
        (self.port, self.directory, self.running) = (port, directory, running)
    }

    /// The next SMS the receiver accepted (`{to, body, code, purpose}`), waiting up to `timeout` for it: Limen Server
    /// sends from its outbox after it answered.
    public func nextMessage(timeout: Duration = .seconds(30)) async throws -> [String: JSONValue] {
        let number = looked.withLock {
            $0 += 1
            return $0
        }
        let file = directory.appendingPathComponent("mail/\(number).json")
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = try await running.firstLine(on: .standardOutput, timeout: timeout) { line in
                line.hasPrefix("KEPT ") && Int(line.dropFirst("KEPT ".count)) ?? 0 >= number
            }
        }
        return try JSONValue(parsing: Data(contentsOf: file)).objectValue ?? [:]
    }

    /// Stops the receiver and removes what it kept.
    public func stop() async {
        _ = await running.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a receiver, runs `body` with it, and stops it however `body` ends.
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SMSSink) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(), stop: { await $0.stop() }, body)
    }
}
