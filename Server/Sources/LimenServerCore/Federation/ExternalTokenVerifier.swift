import Foundation
import LimenOIDC
import LimenWire

/// Who an external token (a trusted issuer's, or an upstream provider's ID token) says signed in: the kind of identity
/// it is, `sub`, and what the issuer's claims say of them.
package struct ExternalIdentity: Sendable, Equatable, Codable {
    /// The identity kind: `oidc:` and the issuer (``TrustedIssuer/identityKind``, ``IdentityProvider/identityKind``).
    package let identityKind: String
    /// Whether the issuer's verified address may link the identity to the user who has it.
    let linkByVerifiedEmail: Bool
    /// The token's `sub`.
    package let subject: String
    /// The address, normalised, if the token has one.
    package let email: String?
    /// Whether the issuer says it verified the address.
    package let emailVerified: Bool
    /// The display name, if the token has one.
    package let name: String?
    /// When the user authenticated at the issuer: `auth_time`, else `iat`.
    package let authTime: Date
}

extension ExternalIdentity {
    /// The identity validated `claims` prove: `sub`, and the address (normalised, kept only when plausible), whether it
    /// is verified and the name, read from the claims `names` gives.
    package init(
        claims: IDTokenClaims,
        identityKind: String,
        linkByVerifiedEmail: Bool,
        names: TrustedIssuer.ClaimNames = TrustedIssuer.ClaimNames()
    ) {
        let email = claims[names.email]?.stringValue.map(Accounts.normalise)
        self.init(
            identityKind: identityKind,
            linkByVerifiedEmail: linkByVerifiedEmail,
            subject: claims.subject,
            email: email.flatMap { Accounts.isPlausibleEmail($0) ? $0 : nil },
            emailVerified: claims[names.emailVerified]?.boolValue ?? false,
            name: claims[names.name]?.stringValue,
            authTime: claims.authTime ?? claims.issuedAt
        )
    }
}

/// Checks a token another issuer signed (RFC 8693 `subject_token`): an ID token or a JWT of a ``TrustedIssuer``.
///
/// In order: the type; the unverified `iss`, which picks the issuer (an untrusted one is refused before anything is
/// fetched); then LimenOIDC's ``JWKSCache/verifiedPayload(of:allowedAlgorithms:)`` — `alg` in the issuer's list (never
/// `none` nor HMAC), the key by `kid` with one rate-limited refetch, the signature; then the claims: `iss`, `sub`,
/// `aud`, `exp` and `iat` present, `aud` naming one of the issuer's audiences (and, when `aud` has several values,
/// `azp` naming one of them too: the party the token was issued to), `exp`, `nbf` and `iat` within 60 seconds of
/// leeway, and `iat` no older than `max_token_age`.
package struct ExternalTokenVerifier: Sendable {
    /// The `subject_token_type`s accepted (RFC 8693 §3).
    static let acceptedTypes: Set<String> = [
        TokenExchangeRequest.TokenType.idToken, TokenExchangeRequest.TokenType.jwt,
    ]
    /// How far clocks may disagree.
    package static let leeway: TimeInterval = 60

    private let keys: [String: TrustedIssuerKeys]
    private let now: @Sendable () -> Date

    /// A verifier for `issuers`, fetching their keys through `transport`.
    package init(
        issuers: [TrustedIssuer],
        transport: any HTTPTransport,
        minimumForcedRefreshInterval: TimeInterval = 60,
        now: @escaping @Sendable () -> Date
    ) {
        var keys: [String: TrustedIssuerKeys] = [:]
        for issuer in issuers {
            keys[issuer.issuer] = TrustedIssuerKeys(
                issuer: issuer, transport: transport, minimumForcedRefreshInterval: minimumForcedRefreshInterval,
                now: now)
        }
        self.keys = keys
        self.now = now
    }

    /// Whether any issuer is trusted (otherwise the grant type is not offered).
    package var isEnabled: Bool { !keys.isEmpty }

    /// Fetches, all at once, the key sets of the issuers that expire within `margin` (``TrustedIssuerKeyRefresher``).
    package func refreshKeys(expiringWithin margin: TimeInterval) async {
        await withTaskGroup(of: Void.self) { group in
            for issuerKeys in keys.values {
                group.addTask { await issuerKeys.refresh(expiringWithin: margin) }
            }
        }
    }

    /// The identity `token` of `type` proves, or why it proves none.
    package func verify(_ token: String, type: String) async throws(ExternalTokenRefusal) -> ExternalIdentity {
        try await verifyWithClaims(token, type: type).identity
    }

    /// ``verify(_:type:)``, with every claim of the verified token (for what a preset reads besides, such as Apple's
    /// `nonce`).
    package func verifyWithClaims(_ token: String, type: String) async throws(ExternalTokenRefusal)
        -> (identity: ExternalIdentity, claims: [String: JSONValue])
    {
        guard Self.acceptedTypes.contains(type) else { throw .unsupportedTokenType }
        let (issuer, members) = try await verifiedPayload(token)
        let claims: IDTokenClaims
        do {
            claims = try IDTokenClaims(claims: members)
        } catch {
            throw .invalid(error)
        }
        try check(claims, of: issuer)
        let identity = ExternalIdentity(
            claims: claims, identityKind: issuer.identityKind, linkByVerifiedEmail: issuer.linkByVerifiedEmail,
            names: issuer.claims)
        return (identity, claims.all)
    }

    /// The issuer of `token` and its claims once its signature is verified (the issuer picked by the unverified `iss`,
    /// `alg` in its list, the key by `kid`), before any claim is checked: what a token that is not an ID token (Apple's
    /// server-to-server notifications) is checked with.
    func verifiedPayload(_ token: String) async throws(ExternalTokenRefusal)
        -> (issuer: TrustedIssuer, claims: [String: JSONValue])
    {
        let unverified: UnverifiedJWT
        do {
            unverified = try UnverifiedJWT(token)
        } catch {
            throw .malformed
        }
        guard let claimedIssuer = unverified.issuer, let issuerKeys = keys[claimedIssuer] else {
            throw .untrustedIssuer
        }
        let issuer = issuerKeys.issuer
        guard let cache = await issuerKeys.keys() else { throw .keysUnavailable(issuer: issuer.issuer) }
        do {
            let (members, _) = try await cache.verifiedPayload(of: token, allowedAlgorithms: Set(issuer.algorithms))
            if await issuerKeys.isRecovering { await issuerKeys.recordSuccess() }
            return (issuer, members)
        } catch .jwksUnavailable {
            await issuerKeys.recordFailure()
            throw .keysUnavailable(issuer: issuer.issuer)
        } catch {
            throw .invalid(error)
        }
    }

    private func check(_ claims: IDTokenClaims, of issuer: TrustedIssuer) throws(ExternalTokenRefusal) {
        guard claims.issuer == issuer.issuer else { throw .untrustedIssuer }
        guard !claims.subject.isEmpty else { throw .invalid(.missingClaim("sub")) }
        guard claims.audience.contains(where: issuer.audiences.contains) else { throw .audienceMismatch }
        if claims.audience.count > 1 {
            guard let party = claims.authorizedParty, issuer.audiences.contains(party) else {
                throw .invalid(.authorizedPartyMismatch)
            }
        }
        let time = now()
        guard time < claims.expiresAt.addingTimeInterval(Self.leeway) else { throw .invalid(.expired) }
        guard claims.issuedAt <= time.addingTimeInterval(Self.leeway) else { throw .invalid(.issuedInFuture) }
        if let notBefore = claims.notBefore, notBefore > time.addingTimeInterval(Self.leeway) {
            throw .invalid(.notYetValid)
        }
        if let maxTokenAge = issuer.maxTokenAge,
            claims.issuedAt.addingTimeInterval(maxTokenAge + Self.leeway) < time
        {
            throw .tooOld
        }
    }
}
