import Logging

/// `mail_url: log:` (the default while the server listens on loopback only) and `sms_url: log:` (the default): each
/// message goes to the server log, clearly marked as not sent.
package struct LogMailer: Mailer {
    /// Where the messages go.
    package let logger: Logger

    /// Makes it of its parts.
    package init(logger: Logger) {
        self.logger = logger
    }

    package func send(_ message: MailMessage) async throws(MailError) {
        switch message.channel {
        case .email:
            logger.notice(
                "Email NOT SENT (mail_url is log:; set it to an smtp:// URL to deliver mail)",
                metadata: ["to": "\(message.to)", "subject": "\(message.subject)", "text": "\(message.text)"])
        case .sms:
            logger.notice(
                "SMS NOT SENT (sms_url is log:; set it to an https:// webhook to deliver SMS)",
                metadata: ["to": "\(message.to)", "text": "\(message.text)"])
        }
    }
}
