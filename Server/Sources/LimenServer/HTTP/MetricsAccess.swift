import Crypto
import Foundation
import HTTPTypes
import Hummingbird
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

    /// Why `request` from `peer` may not read the metrics, or `nil` when it may.
    func refusal(of request: Request, peer: SocketAddress?, proxies: TrustedProxies) -> MetricsRefusal? {
        switch self {
        case .everyone:
            return nil
        case .off:
            return .notServed
        case .loopback:
            let client = proxies.clientAddress(of: request, peer: peer)
            return Self.isLoopback(client) ? nil : .notLoopback
        case .bearerToken(let digest):
            guard let token = BearerChallenge.token(in: request), SHA256.hash(data: Data(token.utf8)) == digest
            else { return .missingToken }
            return nil
        }
    }

    /// Whether `address` (as ``TrustedProxies`` prints it) is a loopback address.
    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }
}

/// Why a request may not read `/metrics`, and how it is answered.
enum MetricsRefusal: Sendable, Equatable {
    /// Metrics are off: `404`, as for any unknown path.
    case notServed
    /// Loopback access and a client elsewhere: `403`.
    case notLoopback
    /// Token access and no (or another) token: `401` with a Bearer challenge (RFC 6750 §3).
    case missingToken

    /// The answer.
    var response: Response {
        switch self {
        case .notServed:
            return Response(status: .notFound)
        case .notLoopback:
            return Responses.jsonError(
                "forbidden", description: "metrics are served to this machine only", status: .forbidden)
        case .missingToken:
            var response = Responses.jsonError(
                "invalid_token", description: "metrics need the metrics bearer token", status: .unauthorized)
            response.headers[.wwwAuthenticate] = #"Bearer realm="metrics", error="invalid_token""#
            return response
        }
    }
}
