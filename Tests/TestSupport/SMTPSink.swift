import Foundation
import LimenTestSupport

/// A real SMTP server (Python aiosmtpd, `Tests/Peers/smtp/server.py`) on 127.0.0.1 that keeps every message, for
/// tests where Limen Server mails a one-time code (`--mail-url smtp://127.0.0.1:PORT`).
public final class SMTPSink: Sendable {
    /// Its port.
    public let port: Int
    /// Where it keeps the messages.
    public let directory: URL
    private let running: RunningProcess

    /// Why it cannot run here, or `nil` when it can (CI sets `LIMEN_REQUIRE_PEERS=1` and installs aiosmtpd).
    public static let unavailableReason = Peers.missingPythonModules(
        "aiosmtpd, cryptography", install: "pip install aiosmtpd cryptography")

    /// The `--mail-url` that sends Limen Server's mail here.
    public var mailURL: String { "smtp://127.0.0.1:\(port)" }

    /// Starts the server and waits for its `READY <port>` line.
    public static func start() async throws -> SMTPSink {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-smtp-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers/smtp/server.py")
        let (running, line) = try await Subprocess.startService(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path, directory.path],
            readyWhen: "READY ", on: .standardOutput)
        guard let port = Int(line.split(separator: " ").last ?? "") else {
            await running.stop()
            try? FileManager.default.removeItem(at: directory)
            throw SubprocessError.failed(program: "aiosmtpd", status: -1, standardError: "no port in \(line)")
        }
        return SMTPSink(port: port, directory: directory, running: running)
    }

    private init(port: Int, directory: URL, running: RunningProcess) {
        (self.port, self.directory, self.running) = (port, directory, running)
    }

    /// How many kept messages ``next(timeout:_:)`` has looked at.
    private let looked = Locked(0)

    /// What `extract` finds in the next kept message (as received) where it finds something, after those already
    /// looked at; messages where it finds nothing (a notice mailed in between) are passed over. Limen Server mails from
    /// its outbox after it answered, so this waits for the sink's `KEPT <n>` line, up to `timeout` for each message.
    public func next<Found>(
        timeout: Duration = .seconds(30),
        _ extract: (String) -> Found?
    ) async throws -> Found {
        while true {
            let number = looked.withLock {
                $0 += 1
                return $0
            }
            let file = directory.appendingPathComponent("mail/\(number).eml")
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = try await running.firstLine(on: .standardOutput, timeout: timeout) { line in
                    line.hasPrefix("KEPT ") && Int(line.dropFirst("KEPT ".count)) ?? 0 >= number
                }
            }
            if let found = extract(try String(contentsOf: file, encoding: .utf8)) { return found }
        }
    }

    /// The code in the next message that carries one (its subject is `Your code: CODE`).
    public func nextCode() async throws -> String {
        try await next(Self.code(in:))
    }

    /// The link in the next message whose plain-text part holds one (the line holding `#limen_interaction=`).
    public func nextLink() async throws -> URL {
        try await next(Self.link(in:))
    }

    private static func code(in message: String) -> String? {
        let subject = "Subject: Your code: "
        return message.components(separatedBy: "\r\n").first { $0.hasPrefix(subject) }.map {
            String($0.dropFirst(subject.count))
        }
    }

    private static func link(in message: String) -> URL? {
        for part in message.components(separatedBy: "\r\n\r\n").dropFirst() {
            let encoded = part.components(separatedBy: "\r\n--").first?.filter { !$0.isWhitespace } ?? ""
            guard let data = Data(base64Encoded: encoded) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if let line = text.components(separatedBy: "\n").first(where: { $0.contains("#limen_interaction=") }) {
                return URL(string: line.trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// Stops the server and removes its messages.
    public func stop() async {
        _ = await running.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a sink, runs `body` with it, and stops it however `body` ends.
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SMTPSink) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(), stop: { await $0.stop() }, body)
    }
}
