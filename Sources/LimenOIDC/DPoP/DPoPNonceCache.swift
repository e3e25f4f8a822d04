import Foundation

/// The last `DPoP-Nonce` each server handed out (RFC 9449 §8, §9), by origin: the token endpoint's and each resource
/// server's, kept apart because each server makes its own.
///
/// Only in memory: a nonce lives minutes, and a stale one costs one `use_dpop_nonce` answer, which brings a fresh one.
public actor DPoPNonceCache {
    private var nonces: [String: String] = [:]

    /// An empty cache.
    public init() {}

    /// The nonce last received from the origin of `url`, if any.
    public func nonce(for url: URL) -> String? {
        url.origin.flatMap { nonces[$0] }
    }

    /// Keeps the `DPoP-Nonce` of `response`, received from `url`'s origin; a response without one changes nothing.
    public func remember(_ response: HTTPResponse, from url: URL) {
        guard let nonce = response.header("DPoP-Nonce"), !nonce.isEmpty, let origin = url.origin else {
            return
        }
        nonces[origin] = nonce
    }
}
