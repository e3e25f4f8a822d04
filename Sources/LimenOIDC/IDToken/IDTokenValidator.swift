import Foundation
import LimenWire

/// Validates ID tokens for one client of one provider (OpenID Connect Core §3.1.3.7, §3.2.2.11).
///
/// Steps, in order:
/// 1. The header's `alg` must be in the policy's allow-list (so `none` and HMAC never get further).
/// 2. The key: with a `kid`, the key with that ID; without one, the single key that fits the algorithm. A key's own
///    `alg`, if set, must equal the header's, and its `use`, if set, must be `sig`. An unknown key makes the
///    ``JWKSCache`` refresh once before `IDTokenValidationError.keyNotFound(kid:)`.
/// 3. The signature, verified by jwt-kit.
/// 4. The claims: `iss`, `aud`, `azp`, `exp`, `iat`, `nbf`, `sub`, then `nonce`, `auth_time` and `at_hash` when the
///    caller supplies what they are checked against.
///
/// ```swift
/// let validator = IDTokenValidator(issuer: "https://id.example.com", clientID: "app", keys: keys)
/// let claims = try await validator.validate(idToken, nonce: request.nonce, accessToken: tokens.accessToken)
/// ```
public struct IDTokenValidator: Sendable {
    /// The issuer the tokens must come from, compared exactly.
    public let issuer: String
    /// This client's ID, which must be an audience.
    public let clientID: String
    /// Where the provider's keys come from.
    public let keys: JWKSCache
    /// Allowed algorithms and clock leeway.
    public let policy: IDTokenValidationPolicy
    private let now: @Sendable () -> Date

    /// Creates a validator.
    public init(
        issuer: String,
        clientID: String,
        keys: JWKSCache,
        policy: IDTokenValidationPolicy = IDTokenValidationPolicy(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.keys = keys
        self.policy = policy
        self.now = now
    }

    /// Validates an ID token and returns its claims.
    ///
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - nonce: The nonce sent in the authentication request; when given, the token's must equal it.
    ///   - maxAge: The `max_age` sent, in seconds; when given, `auth_time` is required and must be recent enough.
    ///   - accessToken: The access token issued with the ID token; when given and the token has `at_hash`, they
    ///     must match.
    public func validate(
        _ idToken: String,
        nonce: String? = nil,
        maxAge: TimeInterval? = nil,
        accessToken: String? = nil
    ) async throws(IDTokenValidationError) -> IDTokenClaims {
        let (members, algorithm) = try await keys.verifiedPayload(
            of: idToken, allowedAlgorithms: policy.allowedAlgorithms)
        let claims = try IDTokenClaims(claims: members)
        try claims.checkIssued(by: issuer, to: clientID)
        try claims.checkInForce(at: now(), leeway: policy.leeway)
        try checkRequestBinding(claims, nonce: nonce, maxAge: maxAge, accessToken: accessToken, algorithm: algorithm)
        return claims
    }

    private func checkRequestBinding(
        _ claims: IDTokenClaims,
        nonce: String?,
        maxAge: TimeInterval?,
        accessToken: String?,
        algorithm: JWSAlgorithm
    ) throws(IDTokenValidationError) {
        if let nonce {
            guard let received = claims.nonce, ConstantTime.equals(received, nonce) else {
                throw .nonceMismatch
            }
        }
        if let maxAge {
            guard let authTime = claims.authTime else { throw .missingAuthTime }
            guard authTime.addingTimeInterval(maxAge + policy.leeway) >= now() else { throw .authenticationTooOld }
        }
        if let accessToken, let accessTokenHash = claims.accessTokenHash {
            let expected = AccessTokenHash.candidates(of: accessToken, algorithm: algorithm)
            guard expected.contains(where: { ConstantTime.equals(accessTokenHash, $0) }) else {
                throw .accessTokenHashMismatch
            }
        }
    }
}
