import Foundation

extension URL {
    /// The URL's origin (RFC 6454): `scheme://host:port`, lowercased, with the scheme's default port when the URL names
    /// none; `nil` without a scheme or host.
    package var origin: String? {
        guard let scheme = scheme?.lowercased(), let host = host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(port ?? (scheme == "https" ? 443 : 80))"
    }
}
