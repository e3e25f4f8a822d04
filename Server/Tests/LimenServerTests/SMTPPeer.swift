import Foundation
import LimenTestSupport
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A real SMTP server (Python aiosmtpd, `Tests/Peers/smtp/server.py`) on 127.0.0.1 with its own throw-away CA.
struct SMTPPeer {
    /// Why the peer cannot run here; `nil` when it can (CI installs aiosmtpd and requires it).
    static let unavailableReason = Peers.missingPythonModules(
        "aiosmtpd, cryptography", install: "pip install aiosmtpd cryptography")

    let directory: TemporaryDirectory
    let port: Int
    /// Delivers the outbox of the provider under test before messages are read; `nil` when the test sends directly.
    var deliverOutbox: (@Sendable () async -> Void)?

    /// This peer, reading only after `provider`'s outbox was delivered (its requests only write to the outbox, and the
    /// fixtures run no worker).
    func delivering(for provider: ServerComposition) -> SMTPPeer {
        var peer = self
        peer.deliverOutbox = { await provider.mailOutboxWorker.deliverDue() }
        return peer
    }

    /// The CA file that signed its certificate.
    var caFile: String { directory.path + "/ca.pem" }

    /// Runs `body` with a server protected by `tls` (`none`, `starttls`, `implicit`), asking for `auth` when given.
    static func with(
        tls: String = "none",
        auth: String? = nil,
        _ body: (SMTPPeer) async throws -> Void
    ) async throws {
        try await PythonPeer.serve(
            script: "Tests/Peers/smtp/server.py",
            arguments: ["--tls", tls] + (auth.map { ["--auth", $0] } ?? [])
        ) { directory, port in
            try await body(SMTPPeer(directory: directory, port: port))
        }
    }

    /// The messages it accepted, oldest first (after delivering the outbox, see ``delivering(for:)``).
    func messages() async -> [String] {
        await deliverOutbox?()
        let mail = directory.path + "/mail"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mail)) ?? []).sorted {
            (Int($0.split(separator: ".")[0]) ?? 0) < (Int($1.split(separator: ".")[0]) ?? 0)
        }
        return names.compactMap { try? String(contentsOfFile: mail + "/" + $0, encoding: .utf8) }
    }

    /// How many messages it accepted so far, without delivering the outbox first.
    func messagesKept() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/mail"))?.count ?? 0
    }

    /// The one-time code in the last message it accepted (its subject is "Your code: CODE").
    func lastCode() async throws -> String {
        let message = try #require(await messages().last)
        let subject = try #require(message.components(separatedBy: "\r\n").first { $0.hasPrefix("Subject: ") })
        return String(subject.dropFirst("Subject: Your code: ".count))
    }

    /// The decoded bodies of a kept `multipart/alternative` message, by content type (`text/plain`, `text/html`).
    static func parts(of message: String) -> [String: String] {
        guard let start = message.range(of: "boundary=\"")?.upperBound,
            let end = message[start...].firstIndex(of: "\"")
        else { return [:] }
        let boundary = "--" + message[start..<end]
        var parts: [String: String] = [:]
        for part in message.components(separatedBy: boundary).dropFirst() {
            guard let split = part.range(of: "\r\n\r\n"),
                let type = part[..<split.lowerBound].components(separatedBy: "\r\n")
                    .first(where: { $0.hasPrefix("Content-Type: ") })?.dropFirst(14).split(separator: ";").first,
                let body = Data(base64Encoded: part[split.upperBound...].filter { !$0.isWhitespace })
            else { continue }
            parts[String(type)] = String(decoding: body, as: UTF8.self)
        }
        return parts
    }

    /// A mailer for this server.
    func mailer(_ url: String, trustCA: Bool = true, attempts: Int = 1) throws -> SMTPMailer {
        guard case .smtp(let endpoint)? = MailTransport(url: url) else { throw MailError("bad test URL \(url)") }
        return SMTPMailer(
            endpoint: endpoint, trustedCAFile: trustCA ? caFile : nil, sender: "limen@example.com",
            logger: Logger(label: "test.mail"),
            retries: MailRetries(attempts: attempts, firstBackoff: .milliseconds(1)),
            timeoutSeconds: 2)
    }
}
