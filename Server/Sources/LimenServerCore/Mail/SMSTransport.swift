import Foundation

/// Where one-time codes sent by SMS go (`sms_url`): the server log, or an HTTPS webhook of an SMS provider (or the
/// operator's own relay) that receives them as signed JSON (``WebhookSignature``).
public enum SMSTransport: Sendable, Equatable, CustomStringConvertible {
    /// To the server log, marked as not sent.
    case log
    /// As a signed JSON POST to an HTTPS endpoint.
    case webhook(WebhookEndpoint)

    /// Reads an `sms_url`: `log:` or `https://host[:port]/path`; `nil` otherwise.
    public init?(url: String) {
        if url == "log:" || url == "log" {
            self = .log
        } else if let components = URLComponents(string: url), let webhook = WebhookEndpoint(components) {
            self = .webhook(webhook)
        } else {
            return nil
        }
    }

    /// The transport without anything secret: the webhook's path and query may hold a token.
    public var description: String {
        switch self {
        case .log: "log:"
        case .webhook(let endpoint): endpoint.description
        }
    }
}
