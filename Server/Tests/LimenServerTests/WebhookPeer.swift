import Foundation
import LimenTestSupport
import LimenWire
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A webhook receiver over HTTPS (Python, `Tests/Peers/webhook/receiver.py`) on 127.0.0.1 with its own throw-away CA,
/// checking each POST's `Limen-Signature` with ``secret`` on its own.
struct WebhookPeer {
    /// Why the peer cannot run here; `nil` when it can.
    static let unavailableReason = Peers.missingPythonModules("cryptography", install: "pip install cryptography")
    /// The secret the receiver checks signatures with.
    static let secret = "a webhook secret of more than 32 characters"

    let directory: TemporaryDirectory
    let port: Int

    /// The CA file that signed its certificate.
    var caFile: String { directory.path + "/ca.pem" }
    /// Its URL, with a path and a query that must never be shown.
    var url: String { "https://localhost:\(port)/hooks/mail?token=path-secret" }

    /// Runs `body` with a receiver answering `status` to its first `failing` POSTs (every one with `-1`).
    static func with(failing: Int = 0, status: Int = 503, _ body: (WebhookPeer) async throws -> Void) async throws {
        try await PythonPeer.serve(
            script: "Tests/Peers/webhook/receiver.py",
            arguments: ["--fail", String(failing), "--status", String(status)],
            environment: ["LIMEN_TEST_WEBHOOK_SECRET": secret]
        ) { directory, port in
            try await body(WebhookPeer(directory: directory, port: port))
        }
    }

    /// The bodies it accepted (signature checked), oldest first.
    func messages() throws -> [[String: JSONValue]] {
        let mail = directory.path + "/mail"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mail)) ?? []).sorted {
            (Int($0.split(separator: ".")[0]) ?? 0) < (Int($1.split(separator: ".")[0]) ?? 0)
        }
        return try names.map { name in
            try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: mail + "/" + name))).objectValue ?? [:]
        }
    }

    /// The status it answered to each POST, in order.
    func attempts() -> [Int] {
        ((try? String(contentsOfFile: directory.path + "/attempts", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }
    }

    /// A configuration change that sends the server's mail here, trusting its CA, with quick retries.
    var configure: @Sendable (inout ServerConfiguration) -> Void {
        { [url, caFile] configuration in
            configuration.mailTransport = MailTransport(url: url) ?? .log
            configuration.mailWebhookSecret = Self.secret
            configuration.mailCAFile = caFile
            configuration.mailRetries = MailRetries(attempts: 3, firstBackoff: .milliseconds(1))
        }
    }

    /// A mailer for this receiver.
    func mailer(secret: String = Self.secret, now: @escaping @Sendable () -> Date = Date.init) throws -> WebhookMailer {
        guard case .webhook(let endpoint)? = MailTransport(url: url) else { throw MailError("bad test URL \(url)") }
        return WebhookMailer(
            endpoint: endpoint, secret: secret, trustedCAFile: caFile, logger: Logger(label: "test.mail"), now: now,
            retries: MailRetries(attempts: 3, firstBackoff: .milliseconds(1)), timeoutSeconds: 5)
    }
}
