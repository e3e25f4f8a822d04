// Apple platforms only: there URLSession asks about each server's trust, and Security reads the chain. Linux's
// FoundationNetworking never asks, so there `URLSessionTransport` is not a `PinnableTransport` and pinning is refused.
#if canImport(Security)
    import Foundation
    import LimenOIDC
    import Security

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension URLSessionTransport: PinnableTransport {
        /// A transport like this one (same timeout) whose server-trust challenges for pinned hosts run the platform's
        /// trust evaluation, then `evaluator` on the chain.
        public func pinned(by evaluator: PinningEvaluator) -> (any HTTPTransport)? {
            URLSessionTransport(timeout: timeout, serverTrust: SecTrustPinning(evaluator: evaluator))
        }
    }

    /// Reads the chain a pinned host presented from its `SecTrust`, once the platform's trust evaluation accepts it,
    /// and hands it to the cross-platform ``PinningEvaluator``.
    struct SecTrustPinning: ServerTrustCheck {
        let evaluator: PinningEvaluator

        func check(_ challenge: URLAuthenticationChallenge) -> NetworkError? {
            let host = challenge.protectionSpace.host
            guard evaluator.isPinned(host) else { return nil }
            guard let trust = challenge.protectionSpace.serverTrust else {
                return evaluator.check(host: host, chain: [])
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                return .tls("TLS with https://\(host) failed (certificate not trusted)")
            }
            let certificates = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
            return evaluator.check(host: host, chain: certificates.map { SecCertificateCopyData($0) as Data })
        }
    }
#endif
