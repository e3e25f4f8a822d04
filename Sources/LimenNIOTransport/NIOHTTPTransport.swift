import Foundation
import Limen
import LimenOIDC
import LimenWire
import NIOSSL
import X509

/// An `HTTPTransport` on SwiftNIO and BoringSSL that sees the certificate chain every server presents, so that
/// `CertificatePinning` works where `URLSessionTransport` cannot enforce it: on Linux (the `limen` tool, servers
/// that use the SDK).
///
/// ```swift
/// var configuration = Configuration(
///     issuer: URL(string: "https://id.example.com")!, clientID: "cli", transport: NIOHTTPTransport())
/// configuration.pinning = try CertificatePinning([PinnedHost("id.example.com", pins: [current, backup])])
/// ```
///
/// Each `https` connection's chain must lead to a trusted root (the system's, from `/etc/ssl/certs`, and
/// ``init(timeout:additionalTrustRoots:maximumResponseBytes:)``'s), be valid now under RFC 5280 and name the host;
/// for a pinned host, a certificate of the chain so built must then have one of its pins. Each request has a
/// connection of its own (HTTP/1.1, `Connection: close`); redirects are not followed and cookies are not kept, as
/// with `URLSessionTransport`.
///
/// On Apple platforms use `URLSessionTransport`, which pins through the system's trust evaluation: there
/// swift-certificates finds no system roots, so this transport trusts only the roots given to it.
public struct NIOHTTPTransport: PinnableTransport {
    /// Seconds a request may take, from connecting to the response's end, before it fails with
    /// `NetworkError.timeout`.
    public let timeout: TimeInterval
    /// The largest response body accepted; a longer one fails with `NetworkError.invalidResponse`.
    public let maximumResponseBytes: Int
    private let trust: ServerTrustEvaluator
    private let tls: Result<NIOSSLContext, NetworkError>

    /// A transport that trusts the system's roots.
    /// - Parameters:
    ///   - timeout: Seconds a request may take, from connecting to the response's end.
    ///   - maximumResponseBytes: The largest response body accepted (16 MiB by default).
    public init(timeout: TimeInterval = 30, maximumResponseBytes: Int = 16 << 20) {
        self.init(timeout: timeout, roots: [], maximumResponseBytes: maximumResponseBytes, pinning: nil)
    }

    /// A transport that trusts the system's roots and `additionalTrustRoots`: a private certificate authority's, or a
    /// test's.
    /// - Parameters:
    ///   - timeout: Seconds a request may take, from connecting to the response's end.
    ///   - additionalTrustRoots: Root certificates in DER (``trustRoots(pemFile:)`` reads them from a PEM file).
    ///   - maximumResponseBytes: The largest response body accepted (16 MiB by default).
    /// - Throws: `ConfigurationError/invalidValue(key:reason:)` (key `additionalTrustRoots`) when one is not a
    ///   certificate.
    public init(timeout: TimeInterval = 30, additionalTrustRoots: [Data], maximumResponseBytes: Int = 16 << 20)
        throws(ConfigurationError)
    {
        var roots: [Certificate] = []
        for (index, der) in additionalTrustRoots.enumerated() {
            guard let root = try? Certificate(derEncoded: Array(der)) else {
                throw .invalidValue(key: "additionalTrustRoots", reason: "item \(index) is not a DER certificate")
            }
            roots.append(root)
        }
        self.init(timeout: timeout, roots: roots, maximumResponseBytes: maximumResponseBytes, pinning: nil)
    }

    private init(timeout: TimeInterval, roots: [Certificate], maximumResponseBytes: Int, pinning: PinningEvaluator?) {
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        trust = ServerTrustEvaluator(
            roots: CertificateStore.systemTrustRoots.appending(contentsOf: roots), pinning: pinning)
        tls = Self.makeTLSContext()
    }

    private init(copying transport: NIOHTTPTransport, pinning: PinningEvaluator) {
        timeout = transport.timeout
        maximumResponseBytes = transport.maximumResponseBytes
        trust = ServerTrustEvaluator(roots: transport.trust.roots, pinning: pinning)
        tls = transport.tls
    }

    /// Sends the request on a connection of its own; every HTTP status is returned, failures below HTTP become
    /// `NetworkError`.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let exchange = HTTPExchange(
            request: request, target: try RequestTarget(request.url), trust: trust, tls: try tls.get(),
            timeout: timeout, maximumBodyBytes: maximumResponseBytes)
        return try await exchange.run().get()
    }

    /// This transport with each chain a pinned host presents checked by `evaluator`, after the trust evaluation.
    public func pinned(by evaluator: PinningEvaluator) -> (any HTTPTransport)? {
        NIOHTTPTransport(copying: self, pinning: evaluator)
    }

    /// The TLS context every connection shares: TLS 1.2 or later, BoringSSL's own verification replaced by
    /// ``ServerTrustEvaluator`` (so it needs no roots of its own).
    private static func makeTLSContext() -> Result<NIOSSLContext, NetworkError> {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.trustRoots = .certificates([])
        do {
            return .success(try NIOSSLContext(configuration: configuration))
        } catch {
            return .failure(.tls("TLS could not be set up (\(error))"))
        }
    }
}
