import Foundation
import LimenOIDC
import LimenServerStorage

/// Limen as the relying party of an upstream provider, for a pending authorization request of the hosted pages or a
/// native flow interaction.
///
/// ``begin(_:for:origin:issuer:)`` stores an ``UpstreamAttempt`` and answers the provider's authorization URL: code flow,
/// PKCE (S256), fresh `state` and `nonce`, the redirect URI `{issuer}/federation/{id}/callback` (one per provider, so a
/// response can only come back to the provider it was asked of: RFC 9700 §4.4.2).
/// ``finish(_:query:issuer:state:attempt:)`` checks the response with LimenOIDC's ``AuthorizationResponse`` (`state` in
/// constant time, RFC 9207 `iss` when sent, and required when the provider says it sends it), redeems the code with the
/// verifier, and validates the ID token with ``IDTokenValidator`` (signature by the provider's published keys, `iss`,
/// `aud`, `azp`, times, `nonce`, `at_hash`).
package struct UpstreamSignIn: Sendable {
    /// Where attempts are kept.
    package let store: any FlowInteractionStore
    /// Limen's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(store: any FlowInteractionStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// The redirect URI Limen registers at provider `id`.
    package static func redirectURI(issuer: String, providerID id: String) -> URL? {
        URL(string: "\(issuer)/federation/\(id)/callback")
    }

    /// Stores an attempt for `pending` and returns where to send the browser. A sign-in again for the account page
    /// (``PendingAuthorization/isReauthentication``) asks the provider for a fresh sign-in (``freshSignIn``).
    package func begin(_ client: UpstreamClient, pending: PendingAuthorization, issuer: String)
        async throws(UpstreamSignInError) -> URL
    {
        try await begin(
            client, for: .request(pending.id),
            origin: UpstreamAttempt.Origin(
                clientID: pending.client.id, request: FlowRequest(hostedPageFor: pending, guest: nil),
                expiresAt: pending.record.expiresAt),
            issuer: issuer, freshSignIn: pending.isReauthentication)
    }

    /// The `max_age` of a sign-in that must be fresh: the person signs in at the provider now, whatever session they
    /// have there (with `prompt=login`), and its ID token's `auth_time` must say so (within the validator's leeway).
    package static let freshSignIn: TimeInterval = 0

    /// Stores an attempt for `target`, made from `origin`, and returns where to send the browser; with `freshSignIn`,
    /// the request carries `prompt=login` and `max_age=0` (``finish(_:query:issuer:state:attempt:maxAge:)`` then checks
    /// `auth_time` with ``freshSignIn``).
    package func begin(
        _ client: UpstreamClient,
        for target: UpstreamAttempt.Target,
        origin: UpstreamAttempt.Origin,
        issuer: String,
        freshSignIn: Bool = false
    ) async throws(UpstreamSignInError) -> URL {
        let provider = client.provider
        let metadata: ProviderMetadata
        do {
            metadata = try await client.metadata()
        } catch {
            throw .refused(error)
        }
        guard let redirectURI = Self.redirectURI(issuer: issuer, providerID: provider.id) else {
            throw .refused(.unsupported("a redirect URI for \(provider.id)"))
        }
        var request = AuthorizationRequest(
            clientID: provider.clientID, redirectURI: redirectURI, scopes: provider.scopes)
        if freshSignIn { (request.prompt, request.maxAge) = (["login"], Int(Self.freshSignIn)) }
        let attempt = UpstreamAttempt(
            providerID: provider.id, target: target, nonce: request.nonce, codeVerifier: request.pkce.verifier)
        do {
            try await attempt.store(state: request.state, origin: origin, in: store, now: now())
        } catch {
            throw .storage(error)
        }
        return request.url(authorizationEndpoint: metadata.authorizationEndpoint)
    }

    /// The attempt the callback's `state` names for `client`'s provider, not yet used; `nil` when there is none.
    package func attempt(_ client: UpstreamClient, state: String?) async throws(StorageError) -> UpstreamAttempt.Stored?
    {
        guard let state, !state.isEmpty else { return nil }
        return try await UpstreamAttempt.find(state: state, providerID: client.provider.id, in: store, now: now())
    }

    /// Uses `attempt` (once: a replayed callback is refused) and checks the callback's `query` (the provider redirected
    /// to this server, whose issuer is `issuer`), redeems its code and validates the ID token (with `maxAge`, the
    /// `max_age` the request sent: `auth_time` required and recent enough); the identity it proves.
    package func finish(
        _ client: UpstreamClient,
        query: String,
        issuer: String,
        state: String,
        attempt stored: UpstreamAttempt.Stored,
        maxAge: TimeInterval? = nil
    ) async throws(UpstreamSignInError) -> ExternalIdentity {
        let provider = client.provider
        do {
            guard try await UpstreamAttempt.use(stored, in: store) else { throw UpstreamSignInError.unknownAttempt }
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .unknownAttempt
        }
        guard let redirectURI = Self.redirectURI(issuer: issuer, providerID: provider.id),
            let callback = URL(string: redirectURI.absoluteString + "?" + query),
            let pkce = PKCE(verifier: stored.attempt.codeVerifier)
        else { throw .unknownAttempt }
        let request = AuthorizationRequest(
            clientID: provider.clientID, redirectURI: redirectURI, scopes: provider.scopes, state: state,
            nonce: stored.attempt.nonce, pkce: pkce)
        do {
            let metadata = try await client.metadata()
            let response = try AuthorizationResponse(
                url: callback, for: request, issuer: provider.issuer,
                issuerParameterRequired: metadata.authorizationResponseIssParameterSupported == true)
            let tokens = try await client.tokens(metadata).exchangeCode(
                response.code, redirectURI: redirectURI, codeVerifier: pkce.verifier)
            guard let idToken = tokens.idToken else { throw UpstreamSignInError.missingIDToken }
            let validator = try await client.idTokenValidator(metadata)
            let claims = try await validator.validate(
                idToken, nonce: stored.attempt.nonce, maxAge: maxAge, accessToken: tokens.accessToken)
            return ExternalIdentity(
                claims: claims, identityKind: provider.identityKind, linkByVerifiedEmail: provider.linkByVerifiedEmail)
        } catch let error as UpstreamSignInError {
            throw error
        } catch let error as OIDCError {
            throw .refused(error)
        } catch let error as IDTokenValidationError {
            throw .refused(.idToken(error))
        } catch {
            throw .refused(.unsupported(String(describing: type(of: error))))
        }
    }
}
