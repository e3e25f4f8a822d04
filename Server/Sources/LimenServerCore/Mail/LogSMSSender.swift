import Logging

/// `sms_url: log:` (the default): each SMS goes to the server log, clearly marked as not sent.
package struct LogSMSSender: Mailer {
    /// Where the messages go.
    package let logger: Logger

    /// Makes it of its parts.
    package init(logger: Logger) {
        self.logger = logger
    }

    package func send(_ message: MailMessage) async throws(MailError) {
        logger.notice(
            "SMS NOT SENT (sms_url is log:; set it to an https:// webhook to deliver SMS)",
            metadata: ["to": "\(message.to)", "text": "\(message.text)"])
    }
}
