import Foundation
import Logging
import NIOCore

/// Sends mail through an SMTP server; a refused or dropped connection is tried again (1 s, then 2 s), then reported.
struct SMTPMailer: Mailer {
    /// The server.
    let endpoint: SMTPEndpoint
    /// CA certificates (PEM) to trust instead of the system's.
    let trustedCAFile: String?
    /// The sender address.
    let sender: String
    /// Where failures are logged (never with the password).
    let logger: Logger
    /// How many times and how soon a message is tried again.
    var retries = MailRetries()
    /// How long connecting may take, and a quarter of how long a session may.
    var timeoutSeconds: Int64 = 15

    func send(_ message: MailMessage) async throws(MailError) {
        let conversation = SMTPConversation(
            endpoint: endpoint, trustedCAFile: trustedCAFile, sender: sender, timeout: .seconds(timeoutSeconds))
        try await retries.run(logger: logger, destination: endpoint.description) {
            try await conversation.deliver(message)
        }
    }
}
