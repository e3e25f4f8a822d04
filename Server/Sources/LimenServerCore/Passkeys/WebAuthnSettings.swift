import Foundation
import LimenServerWire

/// The passkey relying party as configured (`webauthn_rp_id`, `webauthn_rp_name`, `webauthn_origins`); what is not
/// set follows the issuer.
public struct WebAuthnSettings: Sendable, Equatable {
    /// The RP ID passkeys are scoped to (a domain); `nil`: the issuer's host.
    public var relyingPartyID: String?
    /// The name authenticators show.
    public var relyingPartyName = "Limen"
    /// The origins a ceremony may run on: `https://` origins (an app's associated domain), `http://` on loopback,
    /// Android's `android:apk-key-hash:…`; empty: the issuer's origin alone.
    public var origins: [String] = []

    /// The defaults.
    public init() {}

    /// The relying party of a server whose issuer is `issuer`.
    package func relyingParty(issuer: String) -> WebAuthnRelyingParty {
        let issuerURL = URL(string: issuer)
        let issuerOrigin = issuerURL.flatMap(Self.origin(of:)) ?? issuer
        return WebAuthnRelyingParty(
            id: relyingPartyID ?? issuerURL?.host?.lowercased() ?? "",
            name: relyingPartyName,
            origins: Set(origins.isEmpty ? [issuerOrigin] : origins))
    }

    /// Why `origin` cannot run ceremonies for RP ID `id`, or `nil` when it can: an `https://` (or loopback `http://`)
    /// origin's host must be the RP ID or end in `.` and the RP ID (WebAuthn §5.1.4.1); an Android key hash may
    /// run them for any.
    static func mismatch(of origin: String, relyingPartyID id: String) -> String? {
        guard !origin.hasPrefix(Self.androidPrefix) else { return nil }
        guard let host = URL(string: origin)?.host?.lowercased() else { return "\(origin) is not an origin" }
        return host == id || host.hasSuffix("." + id)
            ? nil : "\(origin) is not on \(id) or a subdomain of it, so browsers would refuse its passkeys"
    }

    /// `text` as an origin (`scheme://host[:port]`, lowercased), or `nil` when it is not one a ceremony may run on.
    static func origin(parsing text: String) -> String? {
        if text.hasPrefix(androidPrefix) {
            let hash = text.dropFirst(androidPrefix.count)
            return !hash.isEmpty
                && hash.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_=+/".contains($0)) }
                ? text : nil
        }
        guard let url = URL(string: text), url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil,
            url.user == nil, let origin = origin(of: url)
        else { return nil }
        let host = url.host?.lowercased() ?? ""
        let isLoopback = host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == "::1"
        return url.scheme?.lowercased() == "https" || (url.scheme?.lowercased() == "http" && isLoopback) ? origin : nil
    }

    /// Whether `text` may be an RP ID: a host name of letters, digits, hyphens and dots (an IP address too, for a
    /// server on loopback; browsers want a domain).
    static func isRelyingPartyID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 253 && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// The origin of `url` as browsers write it in client data (``WebOrigin``).
    private static func origin(of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false).flatMap(WebOrigin.init)?.description
    }

    /// What Android's origins start with.
    private static let androidPrefix = "android:apk-key-hash:"
}

/// The relying party in effect: its ID, name and the origins its ceremonies may run on.
package struct WebAuthnRelyingParty: Sendable, Equatable {
    /// The RP ID: the SHA-256 of it starts every authenticator data.
    package var id: String
    /// The name authenticators show.
    package var name: String
    /// The origins a client data may name.
    package var origins: Set<String>
}
