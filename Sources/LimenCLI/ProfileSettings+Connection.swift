import Foundation
import Limen
import LimenNIOTransport
import LimenOIDC

extension ProfileSettings {
    /// The transport and pinning these settings ask for: `nil` (the SDK's default transport) when they pin nothing and
    /// name no roots; otherwise ``NIOHTTPTransport`` (which sees the certificates servers present, on Linux too)
    /// retried as the default is, trusting the roots of ``caFile`` besides the system's, with ``pins`` enforced for
    /// the issuer's host.
    /// - Throws: The `ConfigurationError` of an unreadable roots file, a malformed pin, or fewer than two pins.
    func connection() throws(ConfigurationError) -> (transport: (any HTTPTransport)?, pinning: CertificatePinning) {
        guard pins != nil || caFile != nil else { return (nil, CertificatePinning()) }
        let roots = try caFile.map { path throws(ConfigurationError) in
            try NIOHTTPTransport.trustRoots(pemFile: URL(fileURLWithPath: path))
        }
        let transport = RetryingTransport(base: try NIOHTTPTransport(additionalTrustRoots: roots ?? []))
        guard let pins else { return (transport, CertificatePinning()) }
        return (transport, try CertificatePinning([PinnedHost(issuer.host ?? "", pins: pins)]))
    }
}
