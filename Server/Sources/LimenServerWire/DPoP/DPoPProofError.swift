import Foundation

/// Why a DPoP proof (RFC 9449 §4.3) was refused.
///
/// Every case answers `invalid_dpop_proof` except the nonce cases, which answer `use_dpop_nonce` with a fresh
/// `DPoP-Nonce` header (RFC 9449 §8, §9): see ``oauthError``. Messages never contain the proof, the key or the token.
public enum DPoPProofError: Error, Sendable, Equatable {
    /// The proof is not a compact JWS with a JSON object as header and as claims.
    case malformed
    /// The header's `typ` is not `dpop+jwt`.
    case wrongType
    /// The header's `alg` is absent, `none`, symmetric, unknown or outside the verifier's allow-list; the associated
    /// value is the `alg` as sent (`(absent)` when there is none).
    case algorithmNotAllowed(String)
    /// The header has no `jwk`, or its `jwk` is not a JSON object.
    case keyMissing
    /// The header's `jwk` holds private key members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`).
    case keyHasPrivateMembers
    /// The header's `jwk` cannot verify the `alg`: another key type or curve, members that are absent or not a valid
    /// key, or an RSA modulus outside 2,048–4,096 bits.
    case keyUnusable
    /// The signature is not the `jwk`'s over the proof.
    case signatureInvalid
    /// The `htm`, `htu` or `iat` claim is absent or of the wrong JSON type; the associated value is its name.
    case invalidClaim(String)
    /// The `jti` claim is absent, empty or not a string.
    case jtiMissing
    /// The `jti` claim is longer than the verifier keeps (it would be stored to detect replays).
    case jtiTooLong
    /// The `htm` claim is not the request's method (compared exactly: methods are case-sensitive).
    case methodMismatch
    /// The `htu` claim is not the request's URI, ignoring query and fragment, after RFC 3986 syntax-based
    /// normalisation.
    case targetURIMismatch
    /// The server expects a nonce and the proof has none.
    case nonceMissing
    /// The proof's `nonce` is not the one the server expects (a stale or made-up nonce, or not a string).
    case nonceMismatch
    /// The `iat` claim lies outside the verifier's window around now (too old, or too far ahead).
    case issuedAtOutsideWindow
    /// The request carries an access token and the proof has no `ath` claim.
    case athMissing
    /// The `ath` claim is not the hash of the request's access token.
    case athMismatch

    /// A stable, machine-readable identifier: `dpop.` followed by the failure.
    public var code: String {
        switch self {
        case .malformed: "dpop.malformed"
        case .wrongType: "dpop.wrong_type"
        case .algorithmNotAllowed: "dpop.algorithm_not_allowed"
        case .keyMissing: "dpop.key_missing"
        case .keyHasPrivateMembers: "dpop.key_has_private_members"
        case .keyUnusable: "dpop.key_unusable"
        case .signatureInvalid: "dpop.signature_invalid"
        case .invalidClaim: "dpop.invalid_claim"
        case .jtiMissing: "dpop.jti_missing"
        case .jtiTooLong: "dpop.jti_too_long"
        case .methodMismatch: "dpop.method_mismatch"
        case .targetURIMismatch: "dpop.target_uri_mismatch"
        case .nonceMissing: "dpop.nonce_missing"
        case .nonceMismatch: "dpop.nonce_mismatch"
        case .issuedAtOutsideWindow: "dpop.issued_at_outside_window"
        case .athMissing: "dpop.ath_missing"
        case .athMismatch: "dpop.ath_mismatch"
        }
    }

    /// Whether the client should retry with the server's current nonce: the proof lacks it or carries another one.
    public var requiresNonce: Bool {
        self == .nonceMissing || self == .nonceMismatch
    }

    /// The OAuth error code of the answer (RFC 9449 §12.2): `use_dpop_nonce` when ``requiresNonce``, otherwise
    /// `invalid_dpop_proof`.
    public var oauthError: String {
        requiresNonce ? "use_dpop_nonce" : "invalid_dpop_proof"
    }
}

extension DPoPProofError: LocalizedError {
    /// A human-readable description; never contains the proof's content beyond an `alg` or a claim's name.
    public var errorDescription: String? {
        switch self {
        case .malformed: "The DPoP proof is not a compact JWS with JSON header and claims."
        case .wrongType: "The DPoP proof's typ is not dpop+jwt."
        case .algorithmNotAllowed(let algorithm): "The DPoP proof's algorithm \(algorithm) is not allowed."
        case .keyMissing: "The DPoP proof's header has no public key (jwk)."
        case .keyHasPrivateMembers: "The DPoP proof's header key holds private members."
        case .keyUnusable: "The DPoP proof's header key cannot verify its algorithm."
        case .signatureInvalid: "The DPoP proof's signature does not verify with its header key."
        case .invalidClaim(let name): "The DPoP proof's \(name) claim is absent or of the wrong type."
        case .jtiMissing: "The DPoP proof has no jti."
        case .jtiTooLong: "The DPoP proof's jti is too long."
        case .methodMismatch: "The DPoP proof is for another HTTP method."
        case .targetURIMismatch: "The DPoP proof is for another URI."
        case .nonceMissing: "The DPoP proof lacks the server's nonce."
        case .nonceMismatch: "The DPoP proof's nonce is not the server's current one."
        case .issuedAtOutsideWindow: "The DPoP proof was issued too long ago or too far ahead."
        case .athMissing: "The DPoP proof is not bound to the access token (no ath)."
        case .athMismatch: "The DPoP proof is bound to another access token."
        }
    }
}
