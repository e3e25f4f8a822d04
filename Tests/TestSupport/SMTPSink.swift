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

    /// The last message it kept, as received, if any.
    public func lastMessage() -> String? {
        let mail = directory.appendingPathComponent("mail")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mail.path)) ?? [])
            .compactMap { Int($0.split(separator: ".")[0]) }.sorted()
        return names.last.flatMap { try? String(contentsOf: mail.appendingPathComponent("\($0).eml"), encoding: .utf8) }
    }

    /// The code in the last message (its subject is `Your code: CODE`), if any.
    public func lastCode() -> String? {
        guard
            let subject = lastMessage()?.components(separatedBy: "\r\n")
                .first(where: { $0.hasPrefix("Subject: Your code: ") })
        else { return nil }
        return String(subject.dropFirst("Subject: Your code: ".count))
    }

    /// The link in the last message's plain-text part (the line holding `#limen_interaction=`), if any.
    public func lastLink() -> URL? {
        guard let message = lastMessage() else { return nil }
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
