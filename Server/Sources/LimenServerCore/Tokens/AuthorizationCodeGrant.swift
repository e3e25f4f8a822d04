import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 9700 §2.1.1).
///
/// The code is marked used before anything but its client is checked, so a second attempt by that client is a replay
/// whatever the first one's outcome; such a replay revokes the grant the code produced. A code presented by another
/// client is refused and left alone: a stranger holding a code cannot end the session it made. Every refusal is the
/// same `invalid_grant`.
package struct AuthorizationCodeGrant: Sendable {
    /// Where codes, grants and refresh tokens are kept.
    package let store: any GrantStore & RefreshTokenStore
    /// Makes the tokens.
    package let issuer: TokenIssuer
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any GrantStore & RefreshTokenStore, issuer: TokenIssuer,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.issuer = issuer
        self.now = now
    }

    /// Exchanges the code in the request's form for tokens of its client, bound to its DPoP proof's key if it has one;
    /// a replay is logged through the request's logger.
    package func exchange(_ request: TokenRequest) async throws -> JSONValue {
        let (form, client, logger) = (request.form, request.client, request.logger)
        let code = try form.required("code")
        let redirectURI = try form.required("redirect_uri")
        let resource = try issuer.resource(in: form)
        let codeHash = RandomIdentifier.hash(code)
        let grantID = RandomToken.make(byteCount: 16)
        let now = self.now()
        let redemption = try await store.redeemAuthorizationCode(
            hash: codeHash, clientID: client.id, grantID: grantID, now: now)
        if redemption == .replayed {
            logger.warning(
                "Authorization code replayed; its grant is revoked", metadata: ["client_id": "\(client.id)"])
        }
        guard case .redeemed(let record) = redemption, record.redirectURI == redirectURI else {
            throw TokenEndpointError.invalidGrant
        }
        try Self.checkProofKey(challenge: record.codeChallenge, verifier: form["code_verifier"], client: client)
        // RFC 9449 §10: a code bound to a DPoP key by `dpop_jkt` is redeemed only with a proof by that key.
        if let bound = record.proofKey, bound != request.proofKey {
            throw TokenEndpointError.dpop(.invalidProof("the code is bound to another DPoP key (dpop_jkt)"))
        }

        var grant = GrantRecord(
            id: grantID, clientID: client.id, subject: record.subject, scope: record.scope, authTime: record.authTime,
            nonce: record.nonce, createdAt: now, expiresAt: now,
            browserSessionHash: Scope(record.scope).contains(Scope.offlineAccess) ? nil : record.browserSessionHash,
            methods: record.methods
        )
        let tokens = try await issuer.issue(
            grant: grant, client: client, scope: record.scope, nonce: record.nonce, resource: resource,
            proofKey: request.proofKey)
        grant.expiresAt = tokens.lastExpiry
        grant.proofKey = tokens.refreshTokenKey
        // Refused when a replay of the code came in meanwhile, or its user was disabled since the code was issued: the
        // tokens just signed are never handed out.
        guard try await store.insertGrant(grant, redeemedCodeHash: codeHash) else {
            throw TokenEndpointError.invalidGrant
        }
        if let refreshToken = tokens.refreshToken { try await store.insertRefreshToken(refreshToken) }
        return tokens.body
    }

    /// RFC 7636 §4.6: a stored challenge needs a well-formed verifier whose S256 equals it (compared in constant
    /// time); a verifier without a stored challenge is a downgrade attempt (RFC 9700 §2.1.1); a code without a
    /// challenge is accepted only for a legacy confidential client let off PKCE (OAuth 2.1 §4.1.1).
    static func checkProofKey(
        challenge: String?,
        verifier: String?,
        client: ClientRecord
    ) throws(TokenEndpointError) {
        switch (challenge, verifier) {
        case (nil, nil):
            guard client.mayLeaveOutPKCE else { throw .invalidGrant }
        case (.some(let challenge), .some(let verifier)):
            guard let proofKey = PKCE(verifier: verifier), ConstantTime.equals(proofKey.challenge, challenge) else {
                throw .invalidGrant
            }
        case (nil, .some), (.some, nil):
            throw .invalidGrant
        }
    }
}
