import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging
import NIOCore

/// Builds the HTTP side of a ``Provider``.
public enum LimenServerApplication {
    /// Every route of the provider.
    public static func router(provider: Provider) -> Router<LimenRequestContext> {
        let router = Router(context: LimenRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ServerErrorLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        ServerMetrics.add(
            to: router, access: provider.configuration.metricsAccess, proxies: provider.configuration.trustedProxies)
        if let limit = provider.configuration.postRateLimit {
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: RateLimiter(limit: limit),
                    proxies: provider.configuration.trustedProxies,
                    now: provider.now
                )
            )
        }
        let signInLimiter = provider.configuration.signInRateLimit.map { RateLimiter(limit: $0) }
        if let signInLimiter {
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: signInLimiter, proxies: provider.configuration.trustedProxies, now: provider.now,
                    counted: LimitedRoutes(
                        (FlowPageRoutes.passwordRoutes + [
                            EmailLinkRoutes.submitRoute, AppleSignInKitRoutes.nativeRoute, FlowRoutes.continuationRoute,
                        ]).map { (.post, $0) })))
        }
        if let limit = provider.configuration.authorizeRateLimit {
            // Each stores a request before anyone signs in: /authorize and the start of a flow.
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: RateLimiter(limit: limit), proxies: provider.configuration.trustedProxies,
                    now: provider.now,
                    counted: LimitedRoutes([
                        (.get, AuthorizeRoutes.route), (.post, AuthorizeRoutes.route), (.post, FlowRoutes.startRoute),
                    ])))
        }
        DiscoveryRoutes.add(
            to: router, issuer: provider.issuer, exchangesTokens: !provider.configuration.trustedIssuers.isEmpty,
            keys: provider.keyRing, store: provider.store, now: provider.now)
        let profiles = ProfileService(
            store: provider.store, schemas: provider.profileSchemas, writes: provider.profileWrites, now: provider.now)
        let signIn = SignInResponder(provider: provider)
        AuthorizeRoutes.add(to: router, responder: signIn)
        FlowPageRoutes.add(to: router, responder: signIn)
        ConsentRoutes.add(to: router, responder: signIn)
        LogoutRoutes.add(to: router, responder: signIn)
        EndSessionRoutes.add(to: router, responder: signIn)
        DeviceRoutes.add(to: router, responder: signIn)
        FlowRoutes.add(
            to: router, engine: provider.flowEngine, gate: provider.accountChangeGate(),
            proxies: provider.configuration.trustedProxies, signInLimiter: signInLimiter, now: provider.now)
        EmailLinkRoutes.add(to: router, responder: signIn)
        AccountRoutes.add(to: router, responder: signIn, profiles: profiles)
        FederationRoutes.add(to: router, responder: signIn)
        Stylesheet.add(to: router)
        let tokens = TokenService(provider: provider, lifetimes: provider.configuration.tokenLifetimes)
        let oauth = router.group().add(middleware: OAuthServerErrorMiddleware())
        TokenRoutes.add(to: oauth, service: tokens)
        DeviceAuthorizationRoutes.add(to: oauth, service: tokens)
        RevocationRoutes.add(to: oauth, service: tokens)
        UserInfoRoutes.add(to: router, service: tokens)
        ProfileRoutes.add(to: router, service: tokens, profiles: profiles)
        MeRoutes.add(
            to: router, service: tokens, gate: provider.accountChangeGate(verifier: tokens.verifier),
            unlinker: provider.identityUnlinker, removal: provider.accountRemoval)
        if let apple = tokens.apple { AppleSignInKitRoutes.add(to: router, service: tokens, apple: apple) }
        AdminRoutes.add(
            to: router, store: provider.store, clients: provider.clientCache, accounts: provider.accounts,
            removal: provider.accountRemoval, profiles: profiles, now: provider.now)
        return router
    }

    /// The application, listening where the configuration says. Once the port is bound the issuer is fixed (when
    /// the configuration leaves it to the port) and `onServerRunning` is told the issuer. When it stops, it closes the
    /// provider's store, after everything else has stopped (``StoreClosingService``).
    public static func make(
        provider: Provider,
        logger: Logger = Logger(label: "limen.server"),
        onServerRunning: @escaping @Sendable (_ issuer: String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(provider: provider),
            server: TimedHTTP1Channel.builder(timeouts: provider.configuration.connectionTimeouts),
            configuration: ApplicationConfiguration(
                address: .hostname(provider.configuration.host, port: provider.configuration.port),
                serverName: "limen-server"
            ),
            services: [
                StoreClosingService(store: provider.store),
                ExpirySweeper(
                    store: provider.store,
                    forgetFailuresAfter: provider.configuration.signInLockout.memory,
                    keepAnonymousUsersFor: provider.configuration.tokenLifetimes.anonymousUser,
                    now: provider.now
                ),
                KeyRingRefresher(
                    keys: provider.keyRing, store: provider.store, masterKey: provider.masterKey, now: provider.now),
                provider.mailOutboxWorker,
            ],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? provider.configuration.port
                provider.issuer.set(provider.configuration.issuer(boundPort: port))
                await onServerRunning(provider.issuer.current)
            },
            logger: logger
        )
    }
}
