/// Sends each message of the outbox by its channel: an email through `mail_url`'s mailer, an SMS through `sms_url`'s.
package struct ChannelMailer: Mailer {
    /// Sends the emails.
    package let email: any Mailer
    /// Sends the SMS.
    package let sms: any Mailer

    /// Makes it of its parts.
    package init(email: any Mailer, sms: any Mailer) {
        (self.email, self.sms) = (email, sms)
    }

    package func send(_ message: MailMessage) async throws(MailError) {
        switch message.channel {
        case .email: try await email.send(message)
        case .sms: try await sms.send(message)
        }
    }
}
