import Foundation
import Hummingbird
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
    /// DPoP proof checks for `/token` (the resources check them through ``verifier``).
    let proofs: DPoPProofChecker
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
    /// Stamps the events of revocations and sign-outs.
    let events: SecurityEventRecorder
    /// The proxies whose forwarded client address is believed (a request's origin).
    let proxies: TrustedProxies

    /// Wires the parts over `provider` with `lifetimes`.
    init(composition: ServerComposition, lifetimes: TokenLifetimes) {
        let issuer = TokenIssuer(
            keys: composition.keyRing, issuer: composition.issuer, store: composition.store,
            schemas: composition.profileSchemas,
            resources: composition.configuration.resources, lifetimes: lifetimes, signers: TokenSignerCache(),
            now: composition.now)
        let accounts = ExternalAccounts(
            store: composition.store, events: composition.securityEvents, now: composition.now)
        self.store = composition.store
        self.issuer = composition.issuer
        self.now = composition.now
        self.tokenIssuer = issuer
        self.accounts = accounts
        authenticator = ClientAuthenticator(store: composition.store, cache: composition.clientCache)
        codeGrant = AuthorizationCodeGrant(store: composition.store, issuer: issuer, now: composition.now)
        refreshGrant = RefreshTokenGrant(
            store: composition.store, issuer: issuer, now: composition.now, events: composition.securityEvents)
        deviceGrant = DeviceCodeGrant(store: composition.store, issuer: issuer, now: composition.now)
        exchangeGrant = TokenExchangeGrant(
            issuer: issuer,
            verifier: composition.trustedIssuers,
            accounts: accounts, store: composition.store, signUpEnabled: composition.configuration.signUpEnabled,
            events: composition.securityEvents)
        deviceFlow = DeviceFlow(store: composition.store, keys: composition.derivedKeys, now: composition.now)
        verifier = composition.accessTokenVerifier
        proofs = composition.dpopProofs
        apple = composition.appleIdentities
        appleAccounts = composition.appleAccounts
        profileSchemas = composition.profileSchemas
        signUpEnabled = composition.configuration.signUpEnabled
        events = composition.securityEvents
        proxies = composition.configuration.trustedProxies
    }

    /// Where `request` came from, for the events it causes.
    func origin(of request: Request, context: some RemoteAddressRequestContext) -> RequestOrigin {
        RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies)
    }
}
