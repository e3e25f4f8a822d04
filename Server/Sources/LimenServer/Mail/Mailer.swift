import Foundation

/// One email: plain text and HTML alternatives of the same message.
public struct MailMessage: Sendable, Equatable {
    /// The recipient's address.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body.
    public var html: String

    /// Creates a message.
    public init(to: String, subject: String, text: String, html: String) {
        (self.to, self.subject, self.text, self.html) = (to, subject, text, html)
    }
}

/// Why a message was not sent; the text never holds the mail URL's password.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for the log.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

/// Sends the server's emails (one-time codes and their links), as the `mail_url` setting chooses.
public protocol Mailer: Sendable {
    /// Sends `message` or throws why it was not sent (after the mailer's own retries).
    func send(_ message: MailMessage) async throws(MailError)
}
