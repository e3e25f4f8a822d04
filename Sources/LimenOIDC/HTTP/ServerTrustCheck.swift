import Foundation
import LimenWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks the certificate chain a server presents to a ``URLSessionTransport``, beyond the platform's own trust
/// evaluation: the seam of certificate pinning (`Limen`'s `CertificatePinning`).
///
/// URLSession asks only on Apple platforms; FoundationNetworking (Linux) never delivers a server-trust challenge, so a
/// check given to a transport there is never consulted: Limen refuses pinning on such a transport instead.
public protocol ServerTrustCheck: Sendable {
    /// Checks the server trust of `challenge` (whose authentication method is `NSURLAuthenticationMethodServerTrust`).
    /// - Returns: `nil` to go on with the system's default handling, which evaluates the trust as usual; or the error
    ///   the request fails with, the connection being cancelled.
    func check(_ challenge: URLAuthenticationChallenge) -> NetworkError?
}
