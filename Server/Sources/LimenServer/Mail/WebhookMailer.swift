import Foundation
import LimenServerCore
import LimenWire
import Logging
import NIOCore

/// Sends each message as a JSON POST to an HTTPS endpoint, signed with ``WebhookSignature``:
///
/// ```json
/// {"to": "ada@example.com", "subject": "…", "text": "…", "html": "…", "kind": "code",
///  "purpose": "email-code", "code": "123456", "link": "https://app.example/auth#limen_interaction=…&code=123456"}
/// ```
///
/// (`purpose`, `code` and `link` only with `kind: code`), or for an SMS (`sms_url`, ``smsJSON(of:)``):
///
/// ```json
/// {"to": "+15551234567", "body": "Your example.com code is 123456. …", "code": "123456", "purpose": "sign-in"}
/// ```
///
/// A `2xx` is delivered; a refused connection, a timeout, a
/// `5xx`, `408` or `429` is tried again (1 s, then 2 s), then reported; any other status is reported at once.
struct WebhookMailer: Mailer {
    /// Where to.
    let endpoint: WebhookEndpoint
    /// The HMAC key (`mail_webhook_secret`).
    let secret: String
    /// The TLS context, made once for every message.
    let tls: MailTLSContext
    /// Where failures are logged (never with the secret or the target).
    let logger: Logger
    /// The clock the signature's timestamp reads.
    let now: @Sendable () -> Date
    /// How many times and how soon a message is tried again.
    var retries: MailRetries
    /// How long connecting may take, and a quarter of how long an exchange may.
    var timeoutSeconds: Int64
    /// The JSON body of a message.
    var body: @Sendable (MailMessage) -> JSONValue

    /// A mailer posting to `endpoint`, trusting the CA certificates (PEM) in `trustedCAFile` instead of the system's.
    init(
        endpoint: WebhookEndpoint,
        secret: String,
        trustedCAFile: String?,
        logger: Logger,
        now: @escaping @Sendable () -> Date,
        retries: MailRetries = MailRetries(),
        timeoutSeconds: Int64 = 10,
        body: @escaping @Sendable (MailMessage) -> JSONValue = Self.json(of:)
    ) {
        (self.endpoint, self.secret, self.tls) = (endpoint, secret, MailTLSContext(trusting: trustedCAFile))
        (self.logger, self.now, self.retries, self.timeoutSeconds) = (logger, now, retries, timeoutSeconds)
        self.body = body
    }

    func send(_ message: MailMessage) async throws(MailError) {
        let body = Data(self.body(message).serialized())
        let post = WebhookPost(endpoint: endpoint, tls: tls, timeout: .seconds(timeoutSeconds))
        try await retries.run(logger: logger, destination: endpoint.description) {
            let signature = WebhookSignature.header(body: body, secret: secret, date: now())
            let url = endpoint.url()
            let status = try await OutgoingRequestSpan.run(method: "POST", url: url, status: { $0 }) {
                try await post.send(
                    body: ByteBuffer(bytes: body),
                    headers: [("Content-Type", "application/json"), (WebhookSignature.headerName, signature)])
            }
            guard (200..<300).contains(status) else {
                throw MailError(
                    "\(endpoint) answered \(status)", isRetryable: status >= 500 || status == 408 || status == 429)
            }
        }
    }

    /// An SMS's body: the number, the text, and the code and what it is for.
    static func smsJSON(of message: MailMessage) -> JSONValue {
        .object([
            "to": .string(message.to), "body": .string(message.text), "code": .string(message.code ?? ""),
            "purpose": .string(message.purpose ?? ""),
        ])
    }

    /// An email's body: the message's members, the code's only for a code.
    static func json(of message: MailMessage) -> JSONValue {
        var members: [String: JSONValue] = [
            "to": .string(message.to), "subject": .string(message.subject), "text": .string(message.text),
            "html": .string(message.html), "kind": .string(message.kind.rawValue),
        ]
        for (key, value) in [("purpose", message.purpose), ("code", message.code), ("link", message.link)] {
            if let value { members[key] = .string(value) }
        }
        return .object(members)
    }
}
