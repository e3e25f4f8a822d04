import Foundation

/// An HTTPS endpoint that takes the server's messages as signed JSON POSTs (`mail_url: https://…`).
public struct WebhookEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The server's name, also the name its certificate must carry.
    public var host: String
    /// Its port (443 unless the URL says otherwise).
    public var port: Int
    /// The request target: the path and query (which may hold a token, so it is never described).
    public var target: String

    /// Reads an `https://host[:port]/path?query` URL; `nil` with user information or a fragment (the webhook is
    /// authenticated by its signature, not by credentials in the URL).
    package init?(_ components: URLComponents) {
        guard components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else { return nil }
        (self.host, self.port) = (host, components.port ?? 443)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The URL it names, `https` unless `usesTLS` is false (a loopback webhook allowed for development).
    package func url(usesTLS: Bool = true) -> URL? {
        URL(string: "\(usesTLS ? "https" : "http")://\(host):\(port)\(target)")
    }

    public var description: String {
        "https://\(host):\(port)/…"
    }
}
