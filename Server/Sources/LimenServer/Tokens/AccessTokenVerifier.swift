import Foundation
import LimenOIDC

/// The claims of an access token this provider issued and still honours.
struct AccessTokenClaims: Sendable, Equatable {
    /// The user (`sub`).
    var subject: String
    /// The client it was issued to (`client_id`).
    var clientID: String
    /// The granted scope.
    var scope: String
    /// The grant it belongs to.
    var grantID: String
    /// Its identifier (`jti`), by which it alone can be revoked.
    var tokenID: String
    /// When it was issued.
    var issuedAt: Date
    /// When it expires.
    var expiresAt: Date
    /// Every claim, as signed.
    var all: [String: JSONValue]
}

/// Checks an access token presented to `/userinfo`, `/introspect` or `/revoke`: an ES256 signature by one of the
/// published keys, `typ` `at+jwt` (RFC 9068 §4), this issuer, unexpired, its grant active and the token itself not
/// revoked.
struct AccessTokenVerifier: Sendable {
    /// Whose keys, issuer, store and clock the checks use.
    let provider: Provider

    /// The token's claims, or `nil` when it is not one this provider honours now.
    func verify(_ token: String) async throws(StorageError) -> AccessTokenClaims? {
        let now = provider.now()
        guard let claims = await signedClaims(token, now: now) else { return nil }
        guard let grant = try await provider.store.grant(id: claims.grantID), grant.isActive(at: now),
            grant.clientID == claims.clientID, grant.subject == claims.subject,
            try await !provider.store.isAccessTokenRevoked(jti: claims.tokenID)
        else { return nil }
        return claims
    }

    /// The claims of a token signed by this provider, unexpired, whatever has been revoked since.
    func signedClaims(_ token: String, now: Date) async -> AccessTokenClaims? {
        let keySet = JSONWebKeySet(
            keys: provider.keys.publishedKeys(at: now).map { JSONWebKey(parameters: $0.publicJWK) })
        guard (try? await JWSVerifier.verify(compact: token, jwks: keySet, allowedAlgorithms: [.es256])) != nil,
            let jwt = try? UnverifiedJWT(token),  // its signature was verified just above
            let type = jwt.type?.lowercased(), ["at+jwt", "application/at+jwt"].contains(type),
            jwt.issuer == provider.issuer.current, jwt.audience.contains(provider.issuer.current),
            let expiresAt = jwt.expiresAt, now < expiresAt, let issuedAt = jwt.issuedAt,
            let subject = jwt.subject, let tokenID = jwt.jwtID,
            let clientID = jwt[claim: "client_id"]?.stringValue,
            let grantID = jwt[claim: TokenIssuer.grantClaim]?.stringValue,
            let scope = jwt[claim: "scope"]?.stringValue
        else { return nil }
        return AccessTokenClaims(
            subject: subject, clientID: clientID, scope: scope, grantID: grantID, tokenID: tokenID,
            issuedAt: issuedAt, expiresAt: expiresAt, all: jwt.claims
        )
    }
}
