import Foundation
import Limen
import LimenWire
import X509

/// What the trust evaluation of one TLS handshake decided.
enum TrustVerdict: Sendable, Equatable {
    /// The chain leads to a trusted root, names the host, and matches the host's pins if it has any.
    case trusted
    /// The chain is not trusted (unknown root, expired, another host's certificate, unreadable); the detail says why.
    case untrusted(String)
    /// The chain is trusted but matches none of the host's enforced pins: the error the request fails with.
    case pinningRefused(NetworkError)
}

/// Judges the certificates a server presents in a TLS handshake: the chain must lead to a trusted root under RFC 5280
/// at the current time and name the host (RFC 6125), checked by swift-certificates' `Verifier`; then `PinningEvaluator` checks the
/// certificates of the chain so built, never merely the ones presented (a server cannot pass by adding a pinned
/// certificate that its chain does not use).
struct ServerTrustEvaluator: Sendable {
    /// The roots a chain may end in.
    let roots: CertificateStore
    /// The pins, when the transport enforces them.
    let pinning: PinningEvaluator?

    /// Judges the certificates `host` presented.
    /// - Parameters:
    ///   - host: The host name or IP address connected to.
    ///   - presented: The certificates in DER, leaf first, as the server sent them.
    func evaluate(host: String, presented: [Data]) async -> TrustVerdict {
        guard let leafDER = presented.first, let leaf = try? Certificate(derEncoded: Array(leafDER)) else {
            return .untrusted("the server presented no readable certificate")
        }
        let intermediates = presented.dropFirst().compactMap { try? Certificate(derEncoded: Array($0)) }
        let isIPAddress = RequestTarget.isIPAddress(host)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: isIPAddress ? nil : host, serverIP: isIPAddress ? host : nil)
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
        case .couldNotValidate(let failures):
            return .untrusted(failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to a trusted root")
        case .validCertificate(let chain):
            guard let pinning else { return .trusted }
            return pinning.check(host: host, chain: chain.map(\.derData)).map(TrustVerdict.pinningRefused) ?? .trusted
        }
    }
}
