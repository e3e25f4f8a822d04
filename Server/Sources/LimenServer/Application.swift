import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging
import NIOCore

/// Builds the HTTP side of a ``ServerComposition``.
public enum LimenServerApplication {
    /// Every route of the server, each given the services it uses.
    public static func router(composition: ServerComposition) -> Router<LimenRequestContext> {
        let router = Router(context: LimenRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        if composition.configuration.otelEndpoint != nil {
            router.add(middleware: RequestTracingMiddleware(proxies: composition.configuration.trustedProxies))
        }
        router.add(middleware: ServerErrorLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        if let nonces = composition.dpopProofs.nonces {
            router.add(middleware: DPoPNonceMiddleware(nonces: nonces, now: composition.now))
        }
        ServerMetrics.add(
            to: router, access: composition.configuration.metricsAccess,
            proxies: composition.configuration.trustedProxies)
        let limiters = composition.rateLimiters
        if let limiter = limiters.post {
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: limiter, proxies: composition.configuration.trustedProxies, now: composition.now))
        }
        if let signInLimiter = limiters.signIn {
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: signInLimiter, proxies: composition.configuration.trustedProxies, now: composition.now,
                    counted: LimitedRoutes(
                        (FlowPageRoutes.passwordRoutes + [
                            EmailLinkRoutes.submitRoute, AppleSignInKitRoutes.nativeRoute, FlowRoutes.continuationRoute,
                        ]).map { (.post, $0) })))
        }
        if let limiter = limiters.authorize {
            // Each stores a request before anyone signs in: /authorize, the start of a flow and of app-to-app sign-in.
            router.add(
                middleware: RateLimitMiddleware(
                    limiter: limiter, proxies: composition.configuration.trustedProxies, now: composition.now,
                    counted: LimitedRoutes([
                        (.get, AuthorizeRoutes.route), (.post, AuthorizeRoutes.route), (.post, FlowRoutes.startRoute),
                        (.post, AppToAppRoutes.beginRoute),
                    ])))
        }
        DiscoveryRoutes.add(
            to: router, issuer: composition.issuer, exchangesTokens: !composition.configuration.trustedIssuers.isEmpty,
            keys: composition.keyRing, store: composition.store, now: composition.now)
        let profiles = ProfileService(
            store: composition.store, schemas: composition.profileSchemas, writes: composition.profileWrites,
            now: composition.now)
        let signIn = SignInResponder(composition: composition)
        AuthorizeRoutes.add(to: router, responder: signIn)
        FlowPageRoutes.add(to: router, responder: signIn)
        ConsentRoutes.add(to: router, responder: signIn)
        LogoutRoutes.add(to: router, responder: signIn)
        EndSessionRoutes.add(to: router, responder: signIn)
        DeviceRoutes.add(to: router, responder: signIn)
        FlowRoutes.add(
            to: router, engine: composition.flowEngine, gate: composition.accountChangeGate,
            proxies: composition.configuration.trustedProxies, signInLimiter: limiters.signIn, now: composition.now)
        EmailLinkRoutes.add(to: router, responder: signIn)
        AccountRoutes.add(
            to: router, responder: signIn, profiles: profiles,
            security: AccountSecurityForms(
                services: composition.flowServices, keys: composition.derivedKeys,
                usedChallenges: composition.store, gate: composition.accountChangeGate))
        AccountReauthentication.add(to: router, responder: signIn)
        let adminRoles = AdminRoles(store: composition.store, now: composition.now, events: composition.securityEvents)
        let disablement = AdminUserDisablement(
            store: composition.store, now: composition.now, events: composition.securityEvents)
        let userSessions = AdminUserSessions(
            store: composition.store, now: composition.now, events: composition.securityEvents)
        let adminKeys = AdminKeys(
            ring: composition.keyRing, store: composition.store, masterKey: composition.masterKey,
            now: composition.now)
        AdminConsoleRoutes.add(
            to: router, responder: signIn,
            gate: AdminConsoleGate(roles: adminRoles, users: composition.store, now: composition.now),
            clients: AdminClients(
                store: composition.store, cache: composition.clientCache, events: composition.securityEvents,
                now: composition.now),
            removal: composition.accountRemoval, disablement: disablement, roles: adminRoles, sessions: userSessions,
            events: composition.store, keys: adminKeys, webhooks: composition.webhooks,
            retries: composition.configuration.webhooks.retries, flows: composition.flows, profiles: profiles)
        FederationRoutes.add(to: router, responder: signIn)
        AppToAppRoutes.add(
            to: router,
            authorization: AppToAppAuthorization(
                verifier: composition.accessTokenVerifier,
                validator: AuthorizationValidator(store: composition.store, resources: signIn.resources),
                flow: signIn.flow, clients: composition.clientCache, keys: composition.keyRing,
                store: composition.store))
        Stylesheet.add(to: router)
        let tokens = TokenService(composition: composition, lifetimes: composition.configuration.tokenLifetimes)
        let oauth = router.group().add(middleware: OAuthServerErrorMiddleware())
        TokenRoutes.add(to: oauth, service: tokens)
        DeviceAuthorizationRoutes.add(to: oauth, service: tokens)
        RevocationRoutes.add(to: oauth, service: tokens)
        UserInfoRoutes.add(to: router, service: tokens)
        ProfileRoutes.add(to: router, service: tokens, profiles: profiles)
        MeRoutes.add(
            to: router, service: tokens, gate: composition.accountChangeGate,
            unlinker: composition.identityUnlinker, removal: composition.accountRemoval,
            proxies: composition.configuration.trustedProxies)
        PasskeyRoutes.add(
            to: router, store: composition.store, service: tokens, gate: composition.accountChangeGate)
        SecondFactorRoutes.add(
            to: router, factors: composition.flowServices.secondFactors, notifier: composition.notifier,
            service: tokens, gate: composition.accountChangeGate, proxies: composition.configuration.trustedProxies)
        if let apple = tokens.apple { AppleSignInKitRoutes.add(to: router, service: tokens, apple: apple) }
        AdminRoutes.add(
            to: router, store: composition.store, clients: composition.clientCache, accounts: composition.accounts,
            removal: composition.accountRemoval,
            disablement: disablement, sessions: userSessions, profiles: profiles, keys: adminKeys,
            events: composition.securityEvents,
            proxies: composition.configuration.trustedProxies, now: composition.now)
        AdminWebhookRoutes.add(
            to: router, store: composition.store, webhooks: composition.webhooks,
            schedule: composition.configuration.webhooks.retries, proxies: composition.configuration.trustedProxies)
        return router
    }

    /// The application, listening where the configuration says. Once the port is bound the issuer is fixed (when
    /// the configuration leaves it to the port) and `onServerRunning` is told the issuer. The composition's store is
    /// its opener's to run and close (``LimenServerService``).
    public static func make(
        composition: ServerComposition,
        logger: Logger = Logger(label: "limen.server"),
        onServerRunning: @escaping @Sendable (_ issuer: String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(composition: composition),
            server: TimedHTTP1Channel.builder(timeouts: composition.configuration.connectionTimeouts),
            configuration: ApplicationConfiguration(
                address: .hostname(composition.configuration.host, port: composition.configuration.port),
                serverName: "limen-server"
            ),
            services: [
                ExpirySweeper(
                    store: composition.store,
                    forgetFailuresAfter: composition.configuration.signInLockout.memory,
                    keepAnonymousUsersFor: composition.configuration.tokenLifetimes.anonymousUser,
                    keepSecurityEventsFor: composition.configuration.auditRetention,
                    now: composition.now
                ),
                KeyRingRefresher(
                    keys: composition.keyRing, store: composition.store, masterKey: composition.masterKey,
                    now: composition.now),
                composition.mailOutboxWorker,
                composition.webhookWorker,
                composition.rateLimitSharing,
                TrustedIssuerKeyRefresher(
                    verifiers: [composition.trustedIssuers] + (composition.appleIdentities.map { [$0.verifier] } ?? [])),
            ],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? composition.configuration.port
                composition.issuer.set(composition.configuration.issuer(boundPort: port))
                await onServerRunning(composition.issuer.current)
            },
            logger: logger
        )
    }
}
