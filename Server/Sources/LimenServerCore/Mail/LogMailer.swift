import Logging

/// `mail_url: log:` (the default while the server listens on loopback only): each message goes to the server log,
/// clearly marked as not sent.
package struct LogMailer: Mailer {
    /// Where the messages go.
    package let logger: Logger

    /// Makes it of its parts.
    package init(logger: Logger) {
        self.logger = logger
    }

    package func send(_ message: MailMessage) async throws(MailError) {
        logger.notice(
            "Email NOT SENT (mail_url is log:; set it to an smtp:// URL to deliver mail)",
            metadata: ["to": "\(message.to)", "subject": "\(message.subject)", "text": "\(message.text)"])
    }
}
