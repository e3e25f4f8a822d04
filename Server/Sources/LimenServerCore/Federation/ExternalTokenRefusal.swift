import LimenWire

/// Why an external token was not exchanged. Every case is answered with the same `invalid_grant` (only
/// ``keysUnavailable`` is the server's own failure); the case is for the server's debug log and for tests.
package enum ExternalTokenRefusal: Error, Sendable, Equatable {
    /// The `subject_token_type` is neither an ID token nor a JWT.
    case unsupportedTokenType
    /// The token is not a compact JWS with a JSON payload.
    case malformed
    /// Its `iss` is none of the trusted issuers.
    case untrustedIssuer
    /// Its signature, algorithm, key or claims failed LimenOIDC's checks.
    case invalid(IDTokenValidationError)
    /// Its `aud` names none of the issuer's audiences.
    case audienceMismatch
    /// Its `iat` is older than the issuer's `max_token_age`.
    case tooOld
    /// The keys of `issuer` could not be fetched (or its discovery document could not be, or names none).
    case keysUnavailable(issuer: String)

    /// A stable code for the debug log.
    package var code: String {
        switch self {
        case .unsupportedTokenType: "token_exchange.unsupported_token_type"
        case .malformed: "token_exchange.malformed"
        case .untrustedIssuer: "token_exchange.untrusted_issuer"
        case .invalid(let error): "token_exchange.\(error.code)"
        case .audienceMismatch: "token_exchange.audience_mismatch"
        case .tooOld: "token_exchange.too_old"
        case .keysUnavailable: "token_exchange.keys_unavailable"
        }
    }
}
