import Foundation
import LimenOIDC
import LimenServerCore
import LimenServerStorage

/// What the token-side routes (`/token`, `/device_authorization`, `/revoke`, `/introspect`, `/userinfo`, `/auth/…`)
/// share, made once per router.
struct TokenService: Sendable {
    /// The tables the token-side routes read and write directly: grants and their tokens, users, profiles, Apple's
    /// refresh tokens.
    typealias Storage = GrantStore & RefreshTokenStore & UserStore & IdentityStore & AppleAccountStore
        & ProfileStore

    /// Where grants, tokens and users are kept.
    let store: any Storage
    /// The issuer identifier.
    let issuer: IssuerBox
    /// The current time.
    let now: @Sendable () -> Date
    /// Client authentication for `/token`, `/revoke` and `/introspect`.
    let authenticator: ClientAuthenticator
    /// `grant_type=authorization_code`.
    let codeGrant: AuthorizationCodeGrant
    /// `grant_type=refresh_token`.
    let refreshGrant: RefreshTokenGrant
    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`.
    let deviceGrant: DeviceCodeGrant
    /// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`, with the configuration's trusted issuers.
    let exchangeGrant: TokenExchangeGrant
    /// Starts device authorizations at `/device_authorization`.
    let deviceFlow: DeviceFlow
    /// Access-token checks for `/userinfo`, `/revoke` and `/introspect`.
    let verifier: AccessTokenVerifier
    /// Makes the tokens of every grant.
    let tokenIssuer: TokenIssuer
    /// Finds or makes the users of external identities (token exchange, Sign in with Apple).
    let accounts: ExternalAccounts
    /// Checks Apple identity tokens, when Sign in with Apple is configured.
    let apple: AppleIdentityVerifier?
    /// What Limen keeps of its users' Sign in with Apple, when it is configured.
    let appleAccounts: AppleAccounts?
    /// The app schema, compiled (profile claims at `/userinfo`).
    let profileSchemas: AppSchemaCache
    /// Whether an external identity may make an account (``ServerConfiguration/signUpEnabled``).
    let signUpEnabled: Bool

    /// Wires the parts over `provider` with `lifetimes`.
    init(provider: Provider, lifetimes: TokenLifetimes) {
        let issuer = TokenIssuer(
            keys: provider.keyRing, issuer: provider.issuer, store: provider.store, schemas: provider.profileSchemas,
            resources: provider.configuration.resources, lifetimes: lifetimes, signers: TokenSignerCache(),
            now: provider.now)
        let accounts = ExternalAccounts(store: provider.store, now: provider.now)
        self.store = provider.store
        self.issuer = provider.issuer
        self.now = provider.now
        self.tokenIssuer = issuer
        self.accounts = accounts
        authenticator = ClientAuthenticator(store: provider.store, cache: provider.clientCache)
        codeGrant = AuthorizationCodeGrant(store: provider.store, issuer: issuer, now: provider.now)
        refreshGrant = RefreshTokenGrant(store: provider.store, issuer: issuer, now: provider.now)
        deviceGrant = DeviceCodeGrant(store: provider.store, issuer: issuer, now: provider.now)
        exchangeGrant = TokenExchangeGrant(
            issuer: issuer,
            verifier: ExternalTokenVerifier(
                issuers: provider.configuration.trustedIssuers,
                transport: URLSessionTransport(timeout: provider.configuration.outboundTimeout),
                now: provider.now),
            accounts: accounts, store: provider.store, signUpEnabled: provider.configuration.signUpEnabled)
        deviceFlow = DeviceFlow(store: provider.store, keys: provider.derivedKeys, now: provider.now)
        verifier = provider.accessTokenVerifier()
        apple = provider.appleIdentities
        appleAccounts = provider.appleAccounts
        profileSchemas = provider.profileSchemas
        signUpEnabled = provider.configuration.signUpEnabled
    }
}
