import Foundation
import LimenTestSupport
import Logging
import Testing

@testable import LimenServer

/// A real SMTP server (Python aiosmtpd, `Tests/Peers/smtp/server.py`) on 127.0.0.1 with its own throw-away CA.
struct SMTPPeer {
    /// Why the peer cannot run here; `nil` when it can (CI installs aiosmtpd and requires it).
    static let unavailableReason = Peers.missingPythonModules(
        "aiosmtpd, cryptography", install: "pip install aiosmtpd cryptography")

    let directory: TemporaryDirectory
    let port: Int

    /// The CA file that signed its certificate.
    var caFile: String { directory.path + "/ca.pem" }

    /// Runs `body` with a server protected by `tls` (`none`, `starttls`, `implicit`), asking for `auth` when given.
    static func with(
        tls: String = "none",
        auth: String? = nil,
        _ body: (SMTPPeer) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await Subprocess.withService(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", PythonPeer.script("Tests/Peers/smtp/server.py").path, directory.path, "--tls", tls]
                + (auth.map { ["--auth", $0] } ?? []),
            readyWhen: "READY", on: .standardOutput
        ) { _, _ in
            let port = Int((try? String(contentsOfFile: directory.path + "/port", encoding: .utf8)) ?? "") ?? 0
            try await body(SMTPPeer(directory: directory, port: port))
        }
    }

    /// The messages it accepted, oldest first.
    func messages() -> [String] {
        let mail = directory.path + "/mail"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mail)) ?? []).sorted {
            (Int($0.split(separator: ".")[0]) ?? 0) < (Int($1.split(separator: ".")[0]) ?? 0)
        }
        return names.compactMap { try? String(contentsOfFile: mail + "/" + $0, encoding: .utf8) }
    }

    /// The one-time code in the last message it accepted (the subject ends with it).
    func lastCode() throws -> String {
        let message = try #require(messages().last)
        let subject = try #require(message.components(separatedBy: "\r\n").first { $0.hasPrefix("Subject: ") })
        return String(subject.suffix(EmailCodes.digits))
    }

    /// A mailer for this server.
    func mailer(_ url: String, trustCA: Bool = true, attempts: Int = 1) throws -> SMTPMailer {
        guard case .smtp(let endpoint)? = MailTransport(url: url) else { throw MailError("bad test URL \(url)") }
        return SMTPMailer(
            endpoint: endpoint, trustedCAFile: trustCA ? caFile : nil, sender: "limen@example.com",
            logger: Logger(label: "test.mail"), attempts: attempts, timeoutSeconds: 2, firstBackoff: .milliseconds(1))
    }
}
