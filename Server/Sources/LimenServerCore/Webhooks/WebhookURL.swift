import Foundation

/// Where a webhook posts: an `https` URL, or, when the server allows it for development (`allow_http_webhooks`), an
/// `http` URL on a loopback address. No user information and no fragment; at most ``maximumLength`` characters.
package struct WebhookURL: Sendable, Equatable {
    /// The longest URL taken.
    static let maximumLength = 2048

    /// The endpoint it names (host, port, target).
    package let endpoint: WebhookEndpoint
    /// Whether the connection uses TLS (`https`).
    package let usesTLS: Bool

    /// The URL posted to, as a trace shows it (``OutgoingRequestSpan`` leaves its query out).
    package var url: URL? { endpoint.url(usesTLS: usesTLS) }

    /// Reads `text`; `nil` when it is not a URL this server posts to.
    package init?(_ text: String, allowHTTPLoopback: Bool) {
        guard text.utf8.count <= Self.maximumLength, var components = URLComponents(string: text) else { return nil }
        switch components.scheme?.lowercased() {
        case "https":
            usesTLS = true
        case "http" where allowHTTPLoopback && Self.isLoopback(components.host):
            usesTLS = false
            components.scheme = "https"
            if components.port == nil { components.port = 80 }
        default:
            return nil
        }
        guard let endpoint = WebhookEndpoint(components) else { return nil }
        self.endpoint = endpoint
    }

    /// Whether `host` is a loopback name or address: `localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
