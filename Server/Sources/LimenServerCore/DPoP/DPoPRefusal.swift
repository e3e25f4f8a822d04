/// Why a request's DPoP proof was refused, as `/token` (RFC 9449 §5, §8) and the resources (§7.1, §9) answer it.
public enum DPoPRefusal: Error, Sendable, Equatable {
    /// The proof fails a check of RFC 9449 §4.3, was used before, is not by the key the token is bound to, is missing
    /// where one is required, or the request carries more than one: `invalid_dpop_proof`. The message names the
    /// failure, never the proof's content.
    case invalidProof(String)
    /// The proof lacks the server's current nonce: `use_dpop_nonce`, answered with a fresh `DPoP-Nonce`.
    case useNonce
    /// This node remembers as many proofs as it can (``DPoPReplayCache``): answered 503 with `Retry-After`.
    case replayCacheFull

    /// The `Retry-After` of a ``replayCacheFull`` answer, in seconds.
    public static let retryAfter = "5"

    /// The OAuth error code (RFC 9449 §12.2; `temporarily_unavailable` for a full cache).
    public var code: String {
        switch self {
        case .invalidProof: "invalid_dpop_proof"
        case .useNonce: "use_dpop_nonce"
        case .replayCacheFull: "temporarily_unavailable"
        }
    }

    /// A human message, sent as `error_description`.
    public var message: String {
        switch self {
        case .invalidProof(let reason): reason
        case .useNonce: "use the server's DPoP nonce (DPoP-Nonce) in the proof"
        case .replayCacheFull: "too many DPoP proofs right now: retry shortly"
        }
    }
}
