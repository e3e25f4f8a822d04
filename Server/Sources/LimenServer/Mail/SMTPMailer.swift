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
    /// How many times a message is tried.
    var attempts = 3
    /// How long connecting may take, and a quarter of how long a session may.
    var timeoutSeconds: Int64 = 15
    /// How long to wait before the first retry; doubled before each next one.
    var firstBackoff: Duration = .seconds(1)

    func send(_ message: MailMessage) async throws(MailError) {
        let conversation = SMTPConversation(
            endpoint: endpoint, trustedCAFile: trustedCAFile, sender: sender, timeout: .seconds(timeoutSeconds))
        var backoff = firstBackoff
        var lastError = MailError("not tried")
        for attempt in 1...max(attempts, 1) {
            do {
                try await conversation.deliver(message)
                return
            } catch {
                lastError = (error as? MailError) ?? MailError("\(endpoint): \(error)")
                logger.warning(
                    "Mail not delivered", metadata: ["attempt": "\(attempt)", "error": "\(lastError.description)"])
            }
            if attempt < attempts {
                try? await Task.sleep(for: backoff)
                backoff *= 2
            }
        }
        throw lastError
    }
}
