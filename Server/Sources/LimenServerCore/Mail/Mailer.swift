import Foundation
import LimenServerStorage

/// One email: plain text and HTML alternatives of the same message, and what it is for (which a webhook receives too,
/// to render its own text or an SMS); or one SMS (``Channel-swift.enum/sms``: the text only, to a phone number).
/// Codable for the mail outbox, which keeps it sealed (``MailOutbox``).
public struct MailMessage: Sendable, Equatable, Codable {
    /// How a message travels.
    public enum Channel: String, Sendable, Equatable, Codable {
        /// By email (`mail_url`).
        case email
        /// By SMS (`sms_url`): ``MailMessage/to`` is a phone number (E.164), ``MailMessage/text`` the body.
        case sms
    }

    /// What a message is for.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A one-time code and the link that completes the same step.
        case code
        /// Something the owner of the address should know (no code).
        case notice
    }

    /// The recipient's address.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body.
    public var html: String
    /// What it is for.
    public var kind: Kind
    /// For a code, the flow it serves (`email-code`, `password-reset`, …).
    public var purpose: String?
    /// For a code, the code itself.
    public var code: String?
    /// For a code, the link that completes the step on the device.
    public var link: String?
    /// How it travels: by email unless it says otherwise (so messages queued before SMS existed still decode).
    public var channel: Channel

    /// Creates a message.
    public init(
        to: String,
        subject: String,
        text: String,
        html: String,
        kind: Kind = .notice,
        purpose: String? = nil,
        code: String? = nil,
        link: String? = nil,
        channel: Channel = .email
    ) {
        (self.to, self.subject, self.text, self.html) = (to, subject, text, html)
        (self.kind, self.purpose, self.code, self.link, self.channel) = (kind, purpose, code, link, channel)
    }

    private enum CodingKeys: String, CodingKey {
        case to, subject, text, html, kind, purpose, code, link, channel
    }

    /// Decodes a message; one without `channel` is an email.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            to: try container.decode(String.self, forKey: .to),
            subject: try container.decode(String.self, forKey: .subject),
            text: try container.decode(String.self, forKey: .text),
            html: try container.decode(String.self, forKey: .html),
            kind: try container.decode(Kind.self, forKey: .kind),
            purpose: try container.decodeIfPresent(String.self, forKey: .purpose),
            code: try container.decodeIfPresent(String.self, forKey: .code),
            link: try container.decodeIfPresent(String.self, forKey: .link),
            channel: try container.decodeIfPresent(Channel.self, forKey: .channel) ?? .email)
    }
}

/// Why a message was not sent; the text never holds the mail URL's password or the webhook's secret.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for the log.
    public var description: String
    /// Whether trying the same message again may work (a refused connection, a `5xx`), unlike a `4xx` from a webhook.
    public var isRetryable: Bool

    /// Creates an error.
    public init(_ description: String, isRetryable: Bool = true) {
        self.description = description
        self.isRetryable = isRetryable
    }
}

/// Sends the server's emails (one-time codes and their links), as the `mail_url` setting chooses.
public protocol Mailer: Sendable {
    /// Sends `message` or throws why it was not sent (after the mailer's own retries).
    func send(_ message: MailMessage) async throws(MailError)
}
