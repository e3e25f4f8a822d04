import Foundation
import LimenOIDC
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

/// The composition root: a bootstrapped server's configuration, store and keys, and each of its services, built once.
/// The routes get the services they use from here (``LimenServerApplication/router(composition:)``), never this.
///
/// ``LimenServerService`` bootstraps one and serves it; a scope can do the same by hand:
///
/// ```swift
/// let configuration = ServerConfiguration()
/// let store = try await ServerComposition.openStore(configuration: configuration)
/// let composition = try await ServerComposition.bootstrap(configuration: configuration, store: store)
/// try await LimenServerApplication.make(composition: composition).runService()
/// await store.close()
/// ```
public struct ServerComposition: Sendable {
    /// How the server runs.
    public let configuration: ServerConfiguration
    /// Where everything is kept.
    public let store: any Store
    /// The signing keys as last loaded; ``KeyRingRefresher`` reloads them so rotations reach a running server.
    public let keyRing: KeyRingBox
    /// The issuer identifier (known once the port is bound when the configuration leaves it open).
    public let issuer: IssuerBox
    /// Opens the stored signing keys.
    let masterKey: MasterKey
    /// Keys derived from the master key for keyed hashes (lockout counters, device user codes, CSRF).
    var derivedKeys: DerivedKeys { DerivedKeys(masterKey: masterKey) }
    /// Profile writes, one at a time per user on this node.
    let profileWrites = ProfileWriteQueue()
    /// The current time; injected so that expiry is tested without waiting.
    public let now: @Sendable () -> Date
    /// The sign-in flows it runs: the built-in ones and the configuration's files, those that sign in with Apple only
    /// with the `apple` setting (``FlowCatalog/offered(under:)``).
    let flows: FlowCatalog
    /// Checks Sign in with Apple's identity tokens (one key cache for the flows and the AppleSignInKit routes), when
    /// the `apple` setting is given.
    let appleIdentities: AppleIdentityVerifier?
    /// What Limen keeps of its users' Sign in with Apple, when the `apple` setting is given.
    let appleAccounts: AppleAccounts?
    /// Where its emails and SMS go, once the outbox's worker takes them.
    let mailer: any Mailer
    /// Where requests leave their emails (``MailOutbox``).
    let mailOutbox: MailOutbox
    /// Tells account owners by email what changed on their account.
    let notifier: AccountNotifier
    /// Client records for client authentication, served for a few seconds (see ``ClientCache`` for what another
    /// node's change costs).
    public let clientCache: ClientCache
    /// The app schema, compiled, served for a few seconds (see ``AppSchemaCache`` for what another node's change
    /// costs).
    public let profileSchemas: AppSchemaCache
    /// The upstream OpenID providers of the hosted pages (``ServerConfiguration/identityProviders``).
    let upstreamProviders: UpstreamProviders
    /// Checks the tokens of the configuration's trusted issuers (token exchange); ``TrustedIssuerKeyRefresher`` keeps
    /// their keys fresh.
    let trustedIssuers: ExternalTokenVerifier
    /// What the sign-in flows work with (``FlowEngine``).
    let flowServices: FlowServices

    /// The current signing keys.
    public var keys: KeyRing { keyRing.current }

    /// Accounts: sign-up and changes over the store.
    public let accounts: Accounts
    /// Stamps the security events each change writes with it.
    let securityEvents: SecurityEventRecorder
    /// Password checks, throttled per email and client address.
    let passwordSignIn: PasswordSignIn
    /// Where this node computes password hashes, bounded (``ServerConfiguration/passwordHashingLimits``).
    let passwordHashingQueue: PasswordHashingQueue

    /// Deletes accounts (the account page, `DELETE /v1/me`, the admin API).
    let accountRemoval: AccountRemoval
    /// Checks this server's access tokens, remembering the signatures it verified (one cache for every route).
    let accessTokenVerifier: AccessTokenVerifier
    /// Checks DPoP proofs at `/token` and the resources, remembering the `jti`s this node accepted (one cache for every
    /// route), asking for nonces when ``ServerConfiguration/dpopNonceRequired``.
    let dpopProofs: DPoPProofChecker
    /// Unlinks identities, never the last that signs in as the configuration stands.
    let identityUnlinker: IdentityUnlinker
    /// The rule for who may change an account with an access token (``accessTokenVerifier`` checks the token).
    let accountChangeGate: AccountChangeGate
    /// Delivers the outbox through ``mailer``: a service of the application, or called by hand.
    let mailOutboxWorker: MailOutboxWorker
    /// The event webhooks the admin API registers.
    let webhooks: Webhooks
    /// Hands security events to the webhooks and sends their deliveries: a service of the application, or called by hand.
    let webhookWorker: WebhookWorker
    /// The rate limiters every router of this composition shares.
    let rateLimiters: RateLimiters
    /// Shares what the limiters admit with the other nodes of a PostgreSQL database (a service of the application).
    let rateLimitSharing: RateLimitSharing
    /// The sign-in engine over ``flowServices``.
    let flowEngine: FlowEngine

    init(
        configuration: ServerConfiguration,
        store: any Store,
        keys: KeyRing,
        masterKey: MasterKey,
        flows: FlowCatalog = .builtIn,
        now: @escaping @Sendable () -> Date
    ) {
        // Each client of another server gets its own session; every request it sends is an outgoing request's span.
        let outbound = { TracedHTTPTransport(URLSessionTransport(timeout: configuration.outboundTimeout)) }
        self.flows = flows.offered(under: configuration)
        self.appleIdentities = configuration.apple.map {
            AppleIdentityVerifier(apple: $0, transport: outbound(), now: now)
        }
        self.appleAccounts = configuration.apple.map {
            AppleAccounts(
                store: store, seal: AppleRefreshTokenSeal(keys: DerivedKeys(masterKey: masterKey)),
                team: AppleTeamClient(apple: $0, transport: outbound(), now: now),
                now: now)
        }
        let email: any Mailer =
            switch configuration.mailTransport {
            case .log: LogMailer(logger: Logger(label: "limen.mail"))
            case .smtp(let endpoint):
                SMTPMailer(
                    endpoint: endpoint, trustedCAFile: configuration.mailCAFile, sender: configuration.mailFrom,
                    logger: Logger(label: "limen.mail"), retries: configuration.mailRetries)
            case .webhook(let endpoint):
                WebhookMailer(
                    endpoint: endpoint, secret: configuration.mailWebhookSecret ?? "",
                    // The signature's time is checked against the receiver's clock: the wall clock, not `now` (which
                    // tests move to try expiry).
                    trustedCAFile: configuration.mailCAFile, logger: Logger(label: "limen.mail"), now: Date.init,
                    retries: configuration.mailRetries)
            }
        let sms: any Mailer =
            switch configuration.smsTransport {
            case .log: LogMailer(logger: Logger(label: "limen.sms"))
            case .webhook(let endpoint):
                WebhookMailer(
                    endpoint: endpoint, secret: configuration.smsWebhookSecret ?? "",
                    trustedCAFile: configuration.mailCAFile, logger: Logger(label: "limen.sms"), now: Date.init,
                    retries: configuration.mailRetries, body: WebhookMailer.smsJSON(of:))
            }
        self.mailer = ChannelMailer(email: email, sms: sms)
        self.configuration = configuration
        self.now = now
        self.store = store
        self.mailOutbox = MailOutbox(store: store, keys: DerivedKeys(masterKey: masterKey), now: now)
        self.clientCache = ClientCache(now: now)
        self.profileSchemas = AppSchemaCache(now: now)
        self.upstreamProviders = UpstreamProviders(configuration.identityProviders, transport: outbound(), now: now)
        self.trustedIssuers = ExternalTokenVerifier(
            issuers: configuration.trustedIssuers, transport: outbound(), now: now)
        self.keyRing = KeyRingBox(keys)
        self.masterKey = masterKey
        let derivedKeys = DerivedKeys(masterKey: masterKey)
        // Hashes passwords at the configured cost, in this node's bounded queue.
        self.passwordHashingQueue = PasswordHashingQueue(limits: configuration.passwordHashingLimits)
        let hasher = PasswordHasher(parameters: configuration.passwordHashing, queue: passwordHashingQueue)
        self.securityEvents = SecurityEventRecorder(now: now)
        self.accounts = Accounts(store: store, hasher: hasher, now: now, events: securityEvents)
        self.passwordSignIn = PasswordSignIn(
            store: store,
            hasher: hasher,
            throttle: SignInThrottle(
                store: store, keys: derivedKeys, lockout: configuration.signInLockout,
                slowdown: configuration.signInSlowdown,
                inFlight: InFlightLimit(maximum: SignInThrottle.maximumInFlight), clock: ContinuousClock(), now: now),
            events: securityEvents
        )
        self.issuer = IssuerBox(configuration.issuer(boundPort: configuration.port))
        self.notifier = AccountNotifier(
            outbox: mailOutbox, issuer: issuer, identityProviders: configuration.identityProviders,
            trustedIssuers: configuration.trustedIssuers)
        let passkeys = PasskeyCeremonies(
            store: store, settings: configuration.webAuthn, issuer: issuer, now: now, events: securityEvents)
        self.flowServices = FlowServices(
            flows: self.flows, store: store, accounts: accounts, passwordSignIn: passwordSignIn,
            emailCodes: EmailCodes(
                store: store, keys: derivedKeys, now: now, length: configuration.emailCodeLength),
            emailCodeBudgets: EmailCodeBudgets(
                store: store, keys: derivedKeys, now: now, mails: configuration.emailCodeMailBudget,
                tries: configuration.emailCodeTryBudget),
            phoneCodes: PhoneCodes(
                store: store, keys: derivedKeys, now: now, length: configuration.smsCodeLength,
                countries: configuration.smsCountries),
            notifier: notifier, mailOutbox: mailOutbox, clientCache: clientCache, profileSchemas: profileSchemas,
            upstreamProviders: upstreamProviders, appleIdentities: appleIdentities, appleAccounts: appleAccounts,
            passkeys: passkeys,
            secondFactors: SecondFactors(
                store: store, throttle: passwordSignIn.throttle, keys: derivedKeys,
                serviceName: { passkeys.relyingParty.name }, now: now, events: securityEvents),
            issuer: issuer, signUpEnabled: configuration.signUpEnabled, resources: configuration.resources, now: now)
        self.flowEngine = FlowEngine(services: flowServices)
        self.accountRemoval = AccountRemoval(store: store, accounts: accounts, apple: appleAccounts, notifier: notifier)
        let dpopVerifier = DPoPVerifier(window: .init(past: configuration.dpopProofMaxAge))
        self.dpopProofs = DPoPProofChecker(
            verifier: dpopVerifier,
            replays: DPoPReplayCache(window: dpopVerifier.window, capacity: configuration.dpopReplayCacheSize),
            nonces: configuration.dpopNonceRequired ? DPoPNonces(key: derivedKeys.key(for: .dpopNonce)) : nil)
        self.accessTokenVerifier = AccessTokenVerifier(
            keys: keyRing, issuer: issuer, store: store, now: now, signatures: VerifiedSignatureCache(),
            proofs: dpopProofs)
        self.accountChangeGate = AccountChangeGate(
            verifier: accessTokenVerifier, issuer: issuer, clients: clientCache, store: store,
            maxAge: configuration.tokenLifetimes.accountChangeMaxAge, now: now)
        self.identityUnlinker = IdentityUnlinker(
            store: store, notifier: notifier,
            signsIn: { [configuration] kind in configuration.signsIn(withIdentityKind: kind) },
            events: securityEvents)
        self.mailOutboxWorker = MailOutboxWorker(outbox: mailOutbox, mailer: mailer)
        self.webhooks = Webhooks(
            store: store, keys: derivedKeys, events: securityEvents,
            allowsHTTPLoopback: configuration.webhooks.allowsHTTPLoopback, now: now)
        self.webhookWorker = WebhookWorker(
            dispatcher: WebhookDispatcher(webhooks: webhooks, schedule: configuration.webhooks.retries, now: now),
            transport: WebhookHTTPTransport(trustedCAFile: configuration.mailCAFile),
            timeout: .seconds(configuration.webhooks.timeout), concurrency: configuration.webhooks.concurrency,
            record: WebhookMetrics.record, now: now)
        self.rateLimiters = RateLimiters(configuration: configuration)
        self.rateLimitSharing = RateLimitSharing(limiters: rateLimiters, store: store, now: now)
    }

    /// Removes the client (with its codes, grants and their tokens) and forgets its cached record, so this node
    /// refuses it at once; returns whether it existed.
    @discardableResult
    public func removeClient(id: String) async throws(StorageError) -> Bool {
        try await clientCache.remove(id: id, from: store)
    }

    /// Reloads the signing keys from the store (after a rotation by `limen-server keys rotate`).
    public func reloadKeys() async throws {
        try await keyRing.reload(from: store, masterKey: masterKey, now: now())
    }

    /// Prepares everything a start needs on an open store: the data folder (0700), the master key (0600, created on first
    /// run), the store's migrations, the signing keys, and the seeded `limen-cli` client. `now` is the server's clock
    /// from then on. The store stays open for its opener to close.
    public static func bootstrap(
        configuration: ServerConfiguration,
        store: any Store,
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "limen.server")
    ) async throws -> ServerComposition {
        try createDataDirectory(configuration)
        if configuration.mailTransport == .log {
            logger.warning(
                """
                mail_url is log: every one-time code and email link is written to this log, not sent; set mail_url \
                to an smtp:// or https:// URL before anyone else uses this server
                """)
        }
        let flows = try FlowCatalog.load(files: configuration.flowFiles)
        try flows.checkProviders(configuration.identityProviders)
        let masterKey = try MasterKey.loadOrCreate(at: configuration.masterKeyPath)
        try await store.migrate()
        let keys = try await KeyRing.loadOrCreate(store: store, masterKey: masterKey, now: now(), logger: logger)
        if configuration.seedsCLIClient, try await store.insertClientIfAbsent(SeedClients.cli(now: now())) {
            logger.info("Registered the public client", metadata: ["client_id": "\(SeedClients.cliClientID)"])
        }
        if configuration.apple != nil, try await store.insertClientIfAbsent(AppleSignIn.client(now: now())) {
            logger.info("Registered the public client", metadata: ["client_id": "\(AppleSignIn.clientID)"])
        }
        try await configuration.profileSchema?.applyAsConfigured(to: store, now: now(), logger: logger)
        try await store.startupCompleted()
        return ServerComposition(
            configuration: configuration, store: store, keys: keys, masterKey: masterKey, flows: flows, now: now)
    }
}

extension ServerComposition {
    /// The configured store (PostgreSQL when a database URL is set, else the SQLite file), not yet migrated and not
    /// yet migrated: its opener closes it (``StoreLifecycle/close()``).
    public static func openStore(configuration: ServerConfiguration) async throws -> any Store {
        try createDataDirectory(configuration)
        if let url = configuration.databaseURL {
            return try PostgresStore.connect(url: url, maximumConnections: configuration.databasePoolSize)
        }
        return try await SQLiteStore.open(path: configuration.databasePath)
    }

    /// Runs `body` with the configured store open and migrated, and closes it on every path, when `body`
    /// returns or throws: how an administration command uses the store.
    public static func withStore<Value: Sendable>(
        configuration: ServerConfiguration,
        _ body: (any Store) async throws -> Value
    ) async throws -> Value {
        let store = try await openStore(configuration: configuration)
        do {
            try await store.migrate()
            let value = try await body(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    /// Creates the data folder, readable by its owner only, unless it exists.
    private static func createDataDirectory(_ configuration: ServerConfiguration) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }
}
