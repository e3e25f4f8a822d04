import Foundation

/// Why an ID token, or a JWS checked through ``JWSVerifier``, was refused (OpenID Connect Core §3.1.3.7).
///
/// Messages never contain token material.
public enum IDTokenValidationError: Error, Sendable, Equatable {
    /// The token is not a well-formed compact JWS / JWT; the detail says which part is wrong.
    case malformed(String)
    /// The header's `alg` is absent, `none`, symmetric, unknown or outside the policy's allow-list.
    case algorithmNotAllowed(String)
    /// No usable key in the JWKS matches the header's `kid` (or, without a `kid`, the algorithm), even after one
    /// refresh of the key set.
    case keyNotFound(kid: String?)
    /// The header has no `kid` and several keys in the JWKS would fit, so none is chosen.
    case ambiguousKey
    /// The signature does not verify with the selected key.
    case invalidSignature
    /// The JWKS could not be fetched.
    case jwksUnavailable(NetworkError)
    /// The JWKS, or the key selected from it, is not usable; the detail says why.
    case jwksInvalid(String)
    /// The `iss` claim is not the expected issuer.
    case issuerMismatch(expected: String, actual: String)
    /// The `aud` claim does not contain the client ID.
    case audienceMismatch
    /// The `azp` claim is not the client ID, or is absent although there are several audiences.
    case authorizedPartyMismatch
    /// A required claim is absent; the associated value is its name.
    case missingClaim(String)
    /// A claim has the wrong JSON type (for example a string `exp`); the associated value is its name.
    case invalidClaim(String)
    /// `exp` has passed, beyond the leeway.
    case expired
    /// `iat` lies in the future, beyond the leeway.
    case issuedInFuture
    /// `nbf` lies in the future, beyond the leeway.
    case notYetValid
    /// A nonce was sent but the token's `nonce` is absent or different.
    case nonceMismatch
    /// `max_age` was sent but the token has no `auth_time`.
    case missingAuthTime
    /// The user authenticated longer ago than `max_age` allows.
    case authenticationTooOld
    /// `at_hash` does not match the access token issued with the ID token.
    case accessTokenHashMismatch

    /// A stable, machine-readable identifier: `id_token.` followed by the failure.
    public var code: String {
        switch self {
        case .malformed: "id_token.malformed"
        case .algorithmNotAllowed: "id_token.algorithm_not_allowed"
        case .keyNotFound: "id_token.key_not_found"
        case .ambiguousKey: "id_token.ambiguous_key"
        case .invalidSignature: "id_token.invalid_signature"
        case .jwksUnavailable: "id_token.jwks_unavailable"
        case .jwksInvalid: "id_token.jwks_invalid"
        case .issuerMismatch: "id_token.issuer_mismatch"
        case .audienceMismatch: "id_token.audience_mismatch"
        case .authorizedPartyMismatch: "id_token.authorized_party_mismatch"
        case .missingClaim: "id_token.missing_claim"
        case .invalidClaim: "id_token.invalid_claim"
        case .expired: "id_token.expired"
        case .issuedInFuture: "id_token.issued_in_future"
        case .notYetValid: "id_token.not_yet_valid"
        case .nonceMismatch: "id_token.nonce_mismatch"
        case .missingAuthTime: "id_token.missing_auth_time"
        case .authenticationTooOld: "id_token.authentication_too_old"
        case .accessTokenHashMismatch: "id_token.access_token_hash_mismatch"
        }
    }

    /// Whether validating again later may succeed: only when the key set could not be fetched.
    public var isRetryable: Bool {
        if case .jwksUnavailable(let error) = self { error.isRetryable } else { false }
    }
}

extension IDTokenValidationError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .malformed(let detail): "The ID token is malformed (\(detail))."
        case .algorithmNotAllowed(let alg): "The ID token's signing algorithm “\(alg)” is not allowed."
        case .keyNotFound(let kid):
            kid.map { "No signing key with ID “\($0)” was found." } ?? "No signing key fits the ID token."
        case .ambiguousKey: "The ID token names no key and several keys would fit."
        case .invalidSignature: "The ID token's signature is invalid."
        case .jwksUnavailable(let error):
            "The provider's signing keys could not be fetched: \(error.errorDescription ?? error.code)"
        case .jwksInvalid(let detail): "The provider's signing keys are unusable (\(detail))."
        case .issuerMismatch(let expected, let actual):
            "The ID token was issued by “\(actual)”, not by “\(expected)”."
        case .audienceMismatch: "The ID token is not meant for this client."
        case .authorizedPartyMismatch: "The ID token's authorized party is not this client."
        case .missingClaim(let name): "The ID token has no “\(name)” claim."
        case .invalidClaim(let name): "The ID token's “\(name)” claim has the wrong type."
        case .expired: "The ID token has expired."
        case .issuedInFuture: "The ID token was issued in the future."
        case .notYetValid: "The ID token is not valid yet."
        case .nonceMismatch: "The ID token's nonce does not match the request."
        case .missingAuthTime: "The ID token has no authentication time although a maximum age was requested."
        case .authenticationTooOld: "The user authenticated too long ago."
        case .accessTokenHashMismatch: "The ID token does not belong to the access token it came with."
        }
    }
}
