import Foundation

/// What the token-side routes (`/token`, `/revoke`, `/introspect`, `/userinfo`) share, made once per router.
struct TokenService: Sendable {
    /// The provider the routes serve.
    let provider: Provider
    /// Client authentication for `/token`, `/revoke` and `/introspect`.
    let authenticator: ClientAuthenticator
    /// `grant_type=authorization_code`.
    let codeGrant: AuthorizationCodeGrant
    /// `grant_type=refresh_token`.
    let refreshGrant: RefreshTokenGrant
    /// Access-token checks for `/userinfo`, `/revoke` and `/introspect`.
    let verifier: AccessTokenVerifier

    /// Wires the parts over `provider` with `lifetimes`.
    init(provider: Provider, lifetimes: TokenLifetimes) {
        let issuer = TokenIssuer(provider: provider, lifetimes: lifetimes, signers: TokenSignerCache())
        self.provider = provider
        authenticator = ClientAuthenticator(store: provider.store)
        codeGrant = AuthorizationCodeGrant(store: provider.store, issuer: issuer, now: provider.now)
        refreshGrant = RefreshTokenGrant(store: provider.store, issuer: issuer, now: provider.now)
        verifier = AccessTokenVerifier(provider: provider)
    }
}
