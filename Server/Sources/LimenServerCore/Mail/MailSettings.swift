import Foundation

/// Where mail goes, read from the `mail_url` setting: `log:`, `smtp://host:port`, `smtp+starttls://user:password@host:587`,
/// `smtps://user:password@host:465` or an `https://` webhook. Its description never shows the password or the
/// webhook's path (which may hold a token).
public enum MailTransport: Sendable, Equatable, CustomStringConvertible {
    /// To the server log, not sent.
    case log
    /// To an SMTP server.
    case smtp(SMTPEndpoint)
    /// As a signed JSON POST to an HTTPS endpoint (a mail or SMS provider's, or the operator's own).
    case webhook(WebhookEndpoint)

    /// Reads a `mail_url`; `nil` when it is not one of the forms above.
    public init?(url: String) {
        if url == "log:" || url == "log" {
            self = .log
            return
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return nil }
        if scheme == "https" {
            guard let webhook = WebhookEndpoint(components) else { return nil }
            self = .webhook(webhook)
            return
        }
        let security: SMTPEndpoint.Security
        let defaultPort: Int
        switch scheme {
        case "smtp": (security, defaultPort) = (.none, 25)
        case "smtp+starttls": (security, defaultPort) = (.startTLS, 587)
        case "smtps": (security, defaultPort) = (.implicitTLS, 465)
        default: return nil
        }
        let credentials = components.user.map { (username: $0, password: components.password ?? "") }
        // A password is never sent over a connection that is not encrypted.
        if credentials != nil, security == .none { return nil }
        self = .smtp(
            SMTPEndpoint(host: host, port: components.port ?? defaultPort, security: security, credentials: credentials)
        )
    }

    public var description: String {
        switch self {
        case .log: "log:"
        case .smtp(let endpoint): endpoint.description
        case .webhook(let endpoint): endpoint.description
        }
    }
}

/// An SMTP server and how to reach it.
public struct SMTPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// Plain text (a relay on this machine); no authentication.
        case none
        /// Plain text upgraded with `STARTTLS` before anything else is said (RFC 3207).
        case startTLS
        /// TLS from the first byte (RFC 8314).
        case implicitTLS
    }

    /// The server's name, also the name its certificate must carry.
    public var host: String
    /// Its port.
    public var port: Int
    /// How the connection is protected.
    public var security: Security
    /// `AUTH PLAIN` or `LOGIN` credentials, when the server asks for them.
    public var credentials: (username: String, password: String)?

    public static func == (left: SMTPEndpoint, right: SMTPEndpoint) -> Bool {
        left.host == right.host && left.port == right.port && left.security == right.security
            && left.credentials?.username == right.credentials?.username
            && left.credentials?.password == right.credentials?.password
    }

    public var description: String {
        let scheme =
            switch security {
            case .none: "smtp"
            case .startTLS: "smtp+starttls"
            case .implicitTLS: "smtps"
            }
        return "\(scheme)://\(credentials.map { "\($0.username):***@" } ?? "")\(host):\(port)"
    }
}
