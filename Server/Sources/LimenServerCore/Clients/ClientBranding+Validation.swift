import Foundation
import LimenServerStorage
import NIOCore

extension ClientBranding {
    /// This branding if every field is acceptable: a display name of 1–100 characters without control characters, an
    /// absolute `https` logo URL whose host is a DNS name or an IP address, without credentials or fragment, an accent
    /// colour `#RRGGBB` in ASCII hex digits.
    public func validated() throws(ClientBrandingError) -> ClientBranding {
        if let displayName {
            guard (1...Self.maximumDisplayNameLength).contains(displayName.count),
                !displayName.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
            else { throw .invalid(field: "display_name", "use 1 to 100 characters, no control characters") }
        }
        if let logoURL {
            guard logoURL.utf8.count <= Self.maximumLogoURLLength, let url = URLComponents(string: logoURL),
                url.scheme?.lowercased() == "https", url.host?.isEmpty == false, url.user == nil, url.password == nil,
                url.fragment == nil, !logoURL.contains(where: { $0.isWhitespace || "'\";,<>\\".contains($0) }),
                Self.logoOrigin(of: logoURL) != nil
            else {
                throw .invalid(
                    field: "logo_uri",
                    "use an absolute https URL whose host is a DNS name or an IP address, without credentials or fragment"
                )
            }
        }
        if let accentColor {
            guard Self.isAccentColor(accentColor) else {
                throw .invalid(field: "accent_color", "use a colour of the form #RRGGBB (ASCII hex digits)")
            }
        }
        return self
    }

    /// Whether `text` is an accent colour: `#` and six ASCII hex digits (`#0b6e4f`).
    package static func isAccentColor(_ text: String) -> Bool {
        text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// The origin a page's Content Security Policy allows the logo `logoURL` from, `https://host[:port]` as the URL
    /// encodes it, when its host is a DNS name (letters, digits and hyphens in dot-separated labels) or an IP address;
    /// `nil` for anything else (`*`, a percent-encoded or other character), so nothing but a host ever enters the
    /// header.
    package static func logoOrigin(of logoURL: String) -> String? {
        guard let url = URLComponents(string: logoURL), url.scheme?.lowercased() == "https",
            let encoded = url.encodedHost, let host = acceptedHost(encoded)
        else { return nil }
        return "https://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    /// `host` as a policy writes it when it is a DNS name (lowercased) or an IP address (IPv6 in brackets); `nil` for
    /// anything else.
    private static func acceptedHost(_ host: String) -> String? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.contains(":") {
            guard bare != host, (try? SocketAddress(ipAddress: bare, port: 0)) != nil else { return nil }
            return host.lowercased()
        }
        let labels = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard bare == host, bare.count <= 253,
            labels.allSatisfy({
                // RFC 1123 §2.1: ASCII letters, digits and hyphens, not at either end.
                (1...63).contains($0.count) && $0.first != "-" && $0.last != "-"
                    && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { return nil }
        return bare.lowercased()
    }
}

/// Why client branding was refused.
public enum ClientBrandingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field (as named on the wire) and what it must be.
    case invalid(field: String, String)

    /// The field at fault, as named on the wire.
    public var field: String {
        switch self {
        case .invalid(let field, _): field
        }
    }

    public var description: String {
        switch self {
        case .invalid(let field, let rule): "\(field): \(rule)"
        }
    }
}
