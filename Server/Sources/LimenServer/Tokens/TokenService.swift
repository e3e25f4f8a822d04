import Foundation

/// What the token-side routes (`/token`, `/revoke`, `/introspect`, `/userinfo`) share, made once per router.
struct TokenService: Sendable {
    let provider: Provider
    let authenticator: ClientAuthenticator
    let codeGrant: AuthorizationCodeGrant
    let refreshGrant: RefreshTokenGrant
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
