import Crypto
import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Checks an access token presented to `/userinfo`, `/introspect` or `/revoke`: an ES256 signature by one of the
/// published keys, `typ` `at+jwt` (RFC 9068 §4), this issuer, unexpired, its grant active and the token itself not
/// revoked.
///
/// The signature is checked with the provider's own keys in memory (swift-crypto), not through a JWKS loaded into
/// jwt-kit per request: the same key selection as ``JWSVerifier`` (the header's `alg` must be `ES256`; the `kid`, or
/// without one the only ES256 key, picks exactly one published key), without rebuilding keys on the hot path. A token
/// with a `kid` that passed before is not verified again while it is unexpired (``VerifiedSignatureCache``): its
/// `kid` is the RFC 7638 thumbprint of the key it was verified with, which must still be published.
///
/// A token bound to a DPoP key (`cnf.jkt`, RFC 9449 §6.1) is honoured by ``authorize(_:scope:)`` only with the `DPoP`
/// scheme and a proof by that key for the request (``DPoPProofChecker``).
package struct AccessTokenVerifier: Sendable {
    /// The signing keys, of which the published ones verify.
    package let keys: KeyRingBox
    /// The issuer a token must name, as `iss` and as an `aud`.
    package let issuer: IssuerBox
    /// Where the grants and revoked tokens are kept.
    package let store: any AccessTokenStateStore
    /// The clock.
    package let now: @Sendable () -> Date
    /// Tokens whose signature was verified before.
    package let signatures: VerifiedSignatureCache
    /// Checks the DPoP proofs that come with bound tokens.
    package let proofs: DPoPProofChecker

    /// A verifier of tokens signed with `keys` for `issuer`, checked against `store`, remembering verified signatures
    /// in `signatures`, checking the DPoP proofs of bound tokens with `proofs`.
    package init(
        keys: KeyRingBox, issuer: IssuerBox, store: any AccessTokenStateStore, now: @escaping @Sendable () -> Date,
        signatures: VerifiedSignatureCache = VerifiedSignatureCache(), proofs: DPoPProofChecker = DPoPProofChecker()
    ) {
        (self.keys, self.issuer, self.store, self.now, self.signatures) = (keys, issuer, store, now, signatures)
        self.proofs = proofs
    }

    /// The token's claims, or `nil` when it is not one this provider honours now.
    package func verify(_ token: String) async throws(StorageError) -> AccessTokenClaims? {
        try await verify(token, reading: grantState)?.claims
    }

    /// The state of the grant of `claims` alone: the read of ``verify(_:)``.
    package func grantState(
        _ claims: AccessTokenClaims
    ) async throws(StorageError) -> (state: AccessTokenState, extra: Void)? {
        try await store.accessTokenState(grantID: claims.grantID, jti: claims.tokenID).map { ($0, ()) }
    }

    /// The token's claims and what `read` read with its grant's state (in the same statement), or `nil` when it is
    /// not one this provider honours now.
    package func verify<Extra>(
        _ token: String,
        reading read: (AccessTokenClaims) async throws(StorageError) -> (state: AccessTokenState, extra: Extra)?
    ) async throws(StorageError) -> (claims: AccessTokenClaims, extra: Extra)? {
        let now = self.now()
        guard let claims = signedClaims(token, now: now) else { return nil }
        guard let (state, extra) = try await read(claims), !state.isTokenRevoked, state.grant.isActive(at: now),
            state.grant.clientID == claims.clientID, state.grant.subject == claims.subject
        else { return nil }
        return (claims, extra)
    }

    /// The claims of a token signed by this provider, unexpired, whatever has been revoked since.
    package func signedClaims(_ token: String, now: Date) -> AccessTokenClaims? {
        guard let jwt = try? UnverifiedJWT(token), jwt.algorithm == SigningAlgorithm.es256.rawValue,
            let key = verificationKey(kid: jwt.keyID, at: now),
            let type = jwt.type?.lowercased(), ["at+jwt", "application/at+jwt"].contains(type),
            jwt.issuer == issuer.current, jwt.audience.contains(issuer.current),
            let expiresAt = jwt.expiresAt, now < expiresAt, let issuedAt = jwt.issuedAt,
            let subject = jwt.subject, let tokenID = jwt.jwtID,
            let clientID = jwt[claim: "client_id"]?.stringValue,
            let grantID = jwt[claim: TokenIssuer.grantClaim]?.stringValue,
            let scope = jwt[claim: "scope"]?.stringValue
        else { return nil }
        if !signatures.contains(token, at: now) {
            guard Self.hasValidSignature(token, key: key.publicKey) else { return nil }
            if jwt.keyID != nil { signatures.insert(token, expiresAt: expiresAt, now: now) }
        }
        return AccessTokenClaims(
            subject: subject, clientID: clientID, scope: scope, grantID: grantID, tokenID: tokenID,
            issuedAt: issuedAt, expiresAt: expiresAt, all: jwt.claims
        )
    }

    /// The published ES256 key named by `kid` (without a `kid`, the only published ES256 key); `nil` when there is
    /// none or more than one. Its public half is derived only when a signature is actually checked.
    private func verificationKey(kid: String?, at now: Date) -> P256.Signing.PrivateKey? {
        let candidates = keys.current.publishedKeys(at: now).compactMap { key -> P256.Signing.PrivateKey? in
            guard kid == nil || key.kid == kid, case .es256(let privateKey) = key.material else { return nil }
            return privateKey
        }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// Whether the compact JWS `token` carries a valid ES256 signature (raw `r ‖ s`, RFC 7518 §3.4) by `key` over
    /// its first two segments.
    private static func hasValidSignature(_ token: String, key: P256.Signing.PublicKey) -> Bool {
        let bytes = token.utf8
        guard let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")),
            let signatureBytes = Base64URL.decode(token[token.index(after: lastDot)...]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return false }
        return key.isValidSignature(signature, for: Data(bytes[..<lastDot]))
    }
}

extension AccessTokenVerifier {
    /// The claims of the presented token when this provider honours it, it came as its binding requires (a bound token
    /// with the `DPoP` scheme and a proof by its key, RFC 9449 §7.1), and it grants `scope`; otherwise the challenge
    /// that refuses it (no token, an invalid one, a refused proof, or one without the scope).
    package func authorize(
        _ token: PresentedAccessToken?,
        scope: String
    ) async throws(StorageError) -> Result<AccessTokenClaims, BearerChallenge> {
        try await authorize(token, scope: scope, reading: grantState).map(\.claims)
    }

    /// ``authorize(_:scope:)``, with what `read` read alongside the grant's state.
    package func authorize<Extra>(
        _ token: PresentedAccessToken?,
        scope: String,
        reading read: (AccessTokenClaims) async throws(StorageError) -> (state: AccessTokenState, extra: Extra)?
    ) async throws(StorageError) -> Result<(claims: AccessTokenClaims, extra: Extra), BearerChallenge> {
        guard let token else { return .failure(.missingToken) }
        guard let verified = try await verify(token.token, reading: read) else { return .failure(.invalidToken) }
        if let refusal = await bindingRefusal(of: token, claims: verified.claims) { return .failure(refusal) }
        guard Scope(verified.claims.scope).contains(scope) else { return .failure(.insufficientScope(scope)) }
        return .success(verified)
    }

    /// Why `token`, whose claims are `claims`, is refused as presented: a bound token without the `DPoP` scheme, an
    /// unbound one with it, or a proof that fails (RFC 9449 §7.1); `nil` when it came as it must.
    private func bindingRefusal(of token: PresentedAccessToken, claims: AccessTokenClaims) async -> BearerChallenge? {
        guard let key = claims.confirmationKey, token.scheme == .dpop else {
            return claims.confirmationKey == nil && token.scheme == .bearer ? nil : .wrongScheme
        }
        do {
            let proof = try await proofs.check(
                token.proofs, method: token.method, url: issuer.current + token.path, accessToken: token.token,
                boundTo: key, now: now())
            return proof == nil ? .dpop(.invalidProof("A DPoP proof is required with a DPoP-bound token.")) : nil
        } catch {
            return .dpop(error)
        }
    }
}
