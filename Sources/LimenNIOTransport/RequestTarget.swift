import Foundation
import LimenWire
import NIOCore

/// Where an `HTTPRequest` goes, as a connection needs it: scheme, host, port and the request target.
struct RequestTarget: Sendable, Equatable {
    /// Whether the connection is TLS (`https`).
    let isSecure: Bool
    /// The host name or IP address, without the brackets of an IPv6 literal.
    let host: String
    /// The port, the scheme's default when the URL names none.
    let port: Int
    /// The path and query, percent-encoded as in the URL (`/` when the URL has no path).
    let pathAndQuery: String

    /// Reads `url`.
    /// - Throws: `NetworkError.offline` when the URL is not `http` or `https` with a host: there is nothing to connect
    ///   to.
    init(_ url: URL) throws(NetworkError) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http",
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let rawHost = components.host, !rawHost.isEmpty
        else { throw .offline("cannot send a request to \(url.scheme ?? "a relative") URL (http or https only)") }
        isSecure = scheme == "https"
        host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        port = components.port ?? (isSecure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        pathAndQuery = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// Whether ``host`` is an IP address rather than a name (no SNI then, and the certificate must name the address).
    var isIPAddress: Bool { Self.isIPAddress(host) }

    /// Whether `host` is an IPv4 or IPv6 address (without brackets).
    static func isIPAddress(_ host: String) -> Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }

    /// The `Host` header: the host (in brackets when IPv6) and the port when it is not the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// `scheme://host[:port]`: where the request went, without its path or query (which may hold secrets), for
    /// error messages.
    var origin: String { "\(isSecure ? "https" : "http")://\(hostHeader)" }
}
