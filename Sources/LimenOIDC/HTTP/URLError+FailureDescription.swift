import Foundation
import LimenWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError.Code {
    /// What failed, as a person at a terminal would say it, for a request to `url`: `could not connect to
    /// http://127.0.0.1:9 (connection refused)`, `could not resolve id.example.com (DNS lookup failed)`, `TLS with
    /// https://id.example.com failed (certificate not trusted)`.
    func failureDescription(for url: URL?) -> String {
        let origin = url.map(Self.origin) ?? "the server"
        let host = url?.host ?? "the server's host"
        switch self {
        case .cannotConnectToHost: return "could not connect to \(origin) (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "could not resolve \(host) (DNS lookup failed)"
        case .notConnectedToInternet: return "could not reach \(origin) (no network connection)"
        case .internationalRoamingOff, .dataNotAllowed: return "could not reach \(origin) (mobile data is off)"
        case .networkConnectionLost: return "the connection to \(origin) was lost"
        case .secureConnectionFailed: return "TLS with \(origin) failed (handshake failed)"
        case .serverCertificateUntrusted: return "TLS with \(origin) failed (certificate not trusted)"
        case .serverCertificateHasBadDate: return "TLS with \(origin) failed (certificate expired)"
        case .serverCertificateNotYetValid: return "TLS with \(origin) failed (certificate not yet valid)"
        case .serverCertificateHasUnknownRoot: return "TLS with \(origin) failed (certificate of an unknown root)"
        case .clientCertificateRejected: return "TLS with \(origin) failed (client certificate rejected)"
        case .clientCertificateRequired: return "TLS with \(origin) failed (client certificate required)"
        default: return "the request to \(origin) failed (URLError \(rawValue))"
        }
    }

    /// `scheme://host[:port]` of `url`: where the request went, without its path or query (which may hold secrets).
    private static func origin(of url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.string ?? url.host ?? "the server"
    }
}
