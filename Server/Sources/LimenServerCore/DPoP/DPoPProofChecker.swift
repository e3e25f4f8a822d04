import Foundation
import LimenServerWire
import LimenWire

/// Checks the DPoP proofs requests carry, at `/token` and at the resources Limen serves: RFC 9449 §4.3 by
/// ``DPoPVerifier``, the key a token is bound to, this node's replay cache, and the server's nonce when it asks for one.
///
/// One per node (the replay cache is this node's memory), shared by every route.
///
/// ```swift
/// let proof = try await checker.check(
///     request.dpopProofs, method: "POST", url: issuer + "/token", now: now)   // nil: the request has none
/// ```
package struct DPoPProofChecker: Sendable {
    /// The names of the algorithms proofs may be signed with, sorted: discovery's `dpop_signing_alg_values_supported`
    /// and the `algs` of a `DPoP` challenge.
    package static let algorithmNames = DPoPVerifier.supportedAlgorithms.map(\.rawValue).sorted()

    /// The RFC 9449 §4.3 checks.
    package let verifier: DPoPVerifier
    /// The `jti`s this node accepted recently.
    package let replays: DPoPReplayCache
    /// The nonces proofs must carry, when the server asks for one (``ServerConfiguration/dpopNonceRequired``).
    package let nonces: DPoPNonces?
    /// Says in the log when ``replays`` is full.
    private let fullWarning: DPoPReplayCacheWarning

    /// A checker with `verifier`'s window and algorithms, remembering `jti`s in `replays` (by default a cache spanning
    /// the window), asking for `nonces` when given; `fullWarning` logs when `replays` is full.
    package init(
        verifier: DPoPVerifier = DPoPVerifier(), replays: DPoPReplayCache? = nil, nonces: DPoPNonces? = nil,
        fullWarning: DPoPReplayCacheWarning = DPoPReplayCacheWarning()
    ) {
        self.verifier = verifier
        self.replays = replays ?? DPoPReplayCache(window: verifier.window)
        self.nonces = nonces
        self.fullWarning = fullWarning
    }

    /// The proof among a request's `DPoP` header values `proofs`, checked for that request; `nil` when there is none.
    ///
    /// - Parameters:
    ///   - proofs: the values of the request's `DPoP` header fields; more than one is refused (RFC 9449 §4.3 step 1).
    ///   - method: the request's method.
    ///   - url: the request's URL as the server publishes it (the issuer followed by the path).
    ///   - accessToken: the access token the request carries, at a resource: the proof's `ath` must be its hash.
    ///   - key: the thumbprint the access token is bound to (`cnf.jkt`), at a resource: the proof must be by that key.
    ///   - now: the time of the request.
    /// - Throws: ``DPoPRefusal``; the proof's `jti` is remembered only when nothing else failed.
    package func check(
        _ proofs: [String],
        method: String,
        url: String,
        accessToken: String? = nil,
        boundTo key: String? = nil,
        now: Date
    ) async throws(DPoPRefusal) -> VerifiedDPoPProof? {
        guard let proof = proofs.first else { return nil }
        guard proofs.count == 1 else { throw .invalidProof("send one DPoP proof, not several") }
        let verified: VerifiedDPoPProof
        do {
            verified = try await verifier.verify(
                proof, method: method, url: url, accessToken: accessToken, nonce: expectedNonce(in: proof, now: now),
                now: now)
        } catch {
            throw error.requiresNonce ? .useNonce : .invalidProof(error.errorDescription ?? error.code)
        }
        if let key, !ConstantTime.equals(verified.thumbprint, key) {
            throw .invalidProof("The DPoP proof is not by the key the access token is bound to.")
        }
        switch replays.admit(verified, now: now) {
        case .fresh: return verified
        case .replayed: throw .invalidProof("The DPoP proof was used before.")
        case .full:
            fullWarning.cacheIsFull(replays, now: now)
            throw .replayCacheFull
        }
    }

    /// The nonce `proof` must carry: the one it carries when this server made it recently, otherwise the current one;
    /// `nil` when the server asks for none.
    private func expectedNonce(in proof: String, now: Date) -> String? {
        guard let nonces else { return nil }
        if case .string(let sent)? = (try? UnverifiedJWT(proof))?.claims["nonce"], nonces.accepts(sent, at: now) {
            return sent
        }
        return nonces.current(at: now)
    }
}
