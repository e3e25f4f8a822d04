import Foundation
import LimenWire

/// The origin (RFC 6454 §6.2) of an `http` or `https` URI, as browsers write it and as RFC 3986's syntax-based and
/// scheme-based normalisation (§6.2.2–6.2.3) leaves it: `scheme://host[:port]`, the scheme and host in lower case
/// (the host's percent-encodings normalised, an IPv6 address in its brackets), the port left out when it is the
/// scheme's default (80, 443) or empty. What a DPoP target URI starts with, and what a passkey's client data names.
///
/// ```swift
/// WebOrigin(URLComponents(string: "HTTPS://Example.COM:443/a?b")!)?.description == "https://example.com"
/// ```
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The normalised origin: `scheme://host[:port]`.
    public let description: String

    /// The origin of the URI `components` were read from, or `nil` unless it is an `http` or `https` URI with a host
    /// and no user information.
    public init?(_ components: URLComponents) {
        guard let scheme = components.scheme?.lowercased(), let defaultPort = Self.defaultPorts[scheme],
            components.percentEncodedUser == nil, components.percentEncodedPassword == nil,
            let encodedHost = components.percentEncodedHost, !encodedHost.isEmpty,
            let host = PercentEncoding.normalized(encodedHost, lowercasingLetters: true)
        else { return nil }
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        description = scheme + "://" + host + port
    }

    /// The default port of each scheme an origin may have.
    private static let defaultPorts = ["http": 80, "https": 443]
}
