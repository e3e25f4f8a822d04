import Foundation
import Logging
import NIOCore

/// Sends mail through an SMTP server; a refused or dropped connection is tried again (1 s, then 2 s), then reported.
package struct SMTPMailer: Mailer {
    /// The server.
    package let endpoint: SMTPEndpoint
    /// The TLS context, made once for every message.
    package let tls: MailTLSContext
    /// The sender address.
    package let sender: String
    /// Where failures are logged (never with the password).
    package let logger: Logger
    /// How many times and how soon a message is tried again.
    package var retries: MailRetries
    /// How long connecting may take, and a quarter of how long a session may.
    package var timeoutSeconds: Int64

    /// A mailer for `endpoint`, trusting the CA certificates (PEM) in `trustedCAFile` instead of the system's.
    package init(
        endpoint: SMTPEndpoint,
        trustedCAFile: String?,
        sender: String,
        logger: Logger,
        retries: MailRetries = MailRetries(),
        timeoutSeconds: Int64 = 15
    ) {
        (self.endpoint, self.tls, self.sender) = (endpoint, MailTLSContext(trusting: trustedCAFile), sender)
        (self.logger, self.retries, self.timeoutSeconds) = (logger, retries, timeoutSeconds)
    }

    package func send(_ message: MailMessage) async throws(MailError) {
        let conversation = SMTPConversation(
            endpoint: endpoint, tls: tls, sender: sender, timeout: .seconds(timeoutSeconds))
        try await retries.run(logger: logger, destination: endpoint.description) {
            try await conversation.deliver(message)
        }
    }
}
