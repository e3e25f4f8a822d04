import Crypto
import Foundation
import LimenWire
import NIOCore

/// Who may read `GET /metrics`. Metrics name every route and how often it fails, which tells an attacker what works;
/// so by default only the machine itself (a Prometheus agent beside the server) reads them.
///
/// ```yaml
/// metrics: token            # with LIMEN_METRICS_TOKEN set; or loopback (default), public, off
/// ```
public enum MetricsAccess: Sendable, Equatable {
    /// Clients on a loopback address (`127.0.0.0/8`, `::1`), the client address resolved through the trusted proxies,
    /// so a request a local reverse proxy forwards from outside is refused.
    case loopback
    /// Clients sending `Authorization: Bearer <token>` with this token; only its SHA-256 is kept, and swift-crypto
    /// compares digests in constant time.
    case bearerToken(SHA256Digest)
    /// Everyone: for a server whose port only a private network reaches.
    case everyone
    /// Nobody: `/metrics` is not served.
    case off

    /// The shortest metrics token accepted: 32 characters.
    public static let minimumTokenLength = 32

    /// Token access for `token`.
    public static func bearer(_ token: String) -> MetricsAccess {
        .bearerToken(SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether `address` (as ``TrustedProxies`` prints it) is a loopback address.
    package static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }
}
