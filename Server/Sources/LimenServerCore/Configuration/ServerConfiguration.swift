import Foundation
import LimenServerStorage
import LimenServerWire

/// How a Limen Server instance runs: where it listens, where its data lives, and its public name.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; loopback by default.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The folder holding the SQLite file and the master key; created (0700) on first run.
    public var dataDirectory: String
    /// The public issuer URL (no trailing slash, no query). `nil`: `http://host:port`, with the port actually bound.
    public var issuer: String?
    /// A `postgres://` URL to keep the data in PostgreSQL (many nodes); `nil` keeps it in SQLite in the data folder.
    public var databaseURL: String?
    /// The most PostgreSQL connections this node opens at once; several nodes share the server's `max_connections`.
    public var databasePoolSize: Int
    /// Registers the public native client `limen-cli` on start.
    public var seedsCLIClient: Bool
    /// The scrypt cost for new password hashes.
    public var passwordHashing: PasswordHasher.Parameters
    /// How many password hashes this node computes at once and how many wait; more are answered `503`.
    public var passwordHashingLimits: PasswordHashingQueue.Limits
    /// When repeated failed sign-ins lock an account name for one client address.
    public var signInLockout: SignInLockout
    /// When repeated failed sign-ins from anywhere slow an account name's sign-ins down.
    public var signInSlowdown: SignInSlowdown
    /// Whether people may create their own accounts on the sign-up page (administrators always can).
    public var signUpEnabled: Bool
    /// Whether DPoP proofs must carry a nonce this server handed out (`DPoP-Nonce`, RFC 9449 §8, §9); off by default.
    public var dpopNonceRequired = false
    /// How long ago a DPoP proof's `iat` may be, in seconds (``DPoPVerifier/IssuedAtWindow/past``): with the window's
    /// 10 s ahead, how long each proof's `jti` is remembered.
    public var dpopProofMaxAge = DPoPVerifier.IssuedAtWindow.defaultPast
    /// How many DPoP proofs' `jti`s this node remembers at most (``DPoPReplayCache/capacity``); when that many are
    /// live, proofs are refused with 503 until some expire.
    public var dpopReplayCacheSize = DPoPReplayCache.defaultCapacity
    /// Flow definition files (YAML or JSON, one flow each) that add flows or replace built-in ones.
    public var flowFiles: [String] = []
    /// Where the server's emails (one-time codes) go; the server log by default.
    public var mailTransport: MailTransport = .log
    /// The sender of the server's emails.
    public var mailFrom = "limen@localhost"
    /// CA certificates (PEM) to trust for the SMTP server or webhook instead of the system's (a private relay).
    public var mailCAFile: String?
    /// The key that signs webhook POSTs (`mail_webhook_secret`, at least 32 characters; required with an `https://`
    /// `mail_url`).
    public var mailWebhookSecret: String?
    /// How many digits a one-time code sent by email has (``EmailCodes/lengths``).
    public var emailCodeLength = EmailCodes.defaultLength
    /// How many one-time codes one address may be mailed per purpose (``EmailCodeBudgets``).
    public var emailCodeMailBudget = EmailCodeBudgets.defaultMails
    /// How many one-time codes may be tried for one address per purpose (``EmailCodeBudgets``).
    public var emailCodeTryBudget = EmailCodeBudgets.defaultTries
    /// Where one-time codes sent by SMS go; the server log by default.
    public var smsTransport: SMSTransport = .log
    /// The key that signs the SMS webhook's POSTs (`sms_webhook_secret`, at least 32 characters; required with an
    /// `https://` `sms_url`).
    public var smsWebhookSecret: String?
    /// The country calling codes SMS codes may be sent to; `nil`: every country.
    public var smsCountries: [Int]?
    /// How many digits a one-time code sent by SMS has (``EmailCodes/lengths``).
    public var smsCodeLength = EmailCodes.defaultLength
    /// How often and how soon a message the webhook refused is tried again (shortened by tests).
    package var mailRetries = MailRetries()
    /// How many POST requests one client address may make; `nil` turns the limit off (benchmarks).
    public var postRateLimit: RateLimit?
    /// How many sign-in and sign-up POSTs one client address may make (each costs a password hash), on top of
    /// ``postRateLimit``; `nil` turns the limit off.
    public var signInRateLimit: RateLimit?
    /// How many `GET /authorize` requests one client address may make (each stores a pending request before anyone
    /// signs in); `nil` turns the limit off.
    public var authorizeRateLimit: RateLimit?
    /// The reverse proxies whose `X-Forwarded-For` names the client address that rate limits key on.
    public var trustedProxies: TrustedProxies
    /// The APIs access tokens may be issued for (RFC 8707 resource indicators: absolute URIs without a fragment);
    /// empty: access tokens name only the issuer.
    public var resources: [String]
    /// How long issued tokens live and the refresh-token reuse grace window.
    public var tokenLifetimes: TokenLifetimes
    /// How long a client may take to send a request head, and leave its connection idle (slowloris).
    public var connectionTimeouts: ConnectionTimeouts
    /// Who may read `GET /metrics`; this machine only by default.
    public var metricsAccess: MetricsAccess
    /// The app schema of the configuration file's `profile_schema`, stored at start when it changed (see
    /// ``ProfileSchema/applyAsConfigured(to:now:logger:)``); `nil` leaves the stored schema as it is.
    package var profileSchema: ProfileSchema?
    /// The issuers whose ID tokens and JWTs `/token` exchanges for Limen tokens (RFC 8693); none by default.
    public var trustedIssuers: [TrustedIssuer] = []
    /// Sign in with Apple (the AppleSignInKit-compatible routes); off by default.
    public var apple: AppleSignIn?
    /// The upstream OpenID providers the hosted pages offer ("Continue with …"); none by default.
    public var identityProviders: [IdentityProvider] = []
    /// The passkey relying party (`webauthn_rp_id`, `webauthn_rp_name`, `webauthn_origins`).
    public var webAuthn = WebAuthnSettings()
    /// How long a request to another server may take: a trusted issuer's or Apple's keys, Apple's token endpoint, an
    /// upstream provider's discovery and token endpoints (10 seconds).
    public var outboundTimeout: TimeInterval = 10
    /// How long security events are kept (`audit_retention`) before the expiry sweep deletes them.
    public var auditRetention: TimeInterval = ServerSetting.defaultAuditRetention
    /// How event webhooks are delivered (`allow_http_webhooks`, `webhook_timeout`).
    public var webhooks = WebhookSettings()
    /// Where OpenTelemetry traces go (`otel_endpoint`, OTLP over HTTP); `nil`, the default, traces nothing.
    public var otelEndpoint: URL?

    /// The defaults: `127.0.0.1:8080`, data in `./limen-data`, issuer `http://127.0.0.1:8080`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String = "limen-data",
        issuer: String? = nil,
        databaseURL: String? = nil,
        databasePoolSize: Int = PostgresStore.defaultMaximumConnections,
        seedsCLIClient: Bool = true,
        passwordHashing: PasswordHasher.Parameters = .owasp,
        passwordHashingLimits: PasswordHashingQueue.Limits = .perCore,
        signInLockout: SignInLockout = SignInLockout(),
        signInSlowdown: SignInSlowdown = SignInSlowdown(),
        signUpEnabled: Bool = true,
        postRateLimit: RateLimit? = .defaultPerClientAddress,
        signInRateLimit: RateLimit? = .defaultSignInPerClientAddress,
        authorizeRateLimit: RateLimit? = .defaultAuthorizePerClientAddress,
        trustedProxies: TrustedProxies = .none,
        resources: [String] = [],
        tokenLifetimes: TokenLifetimes = TokenLifetimes(),
        connectionTimeouts: ConnectionTimeouts = ConnectionTimeouts(),
        metricsAccess: MetricsAccess = .loopback
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.issuer = issuer
        self.databaseURL = databaseURL
        self.databasePoolSize = databasePoolSize
        self.seedsCLIClient = seedsCLIClient
        self.passwordHashing = passwordHashing
        self.passwordHashingLimits = passwordHashingLimits
        self.signInLockout = signInLockout
        self.signInSlowdown = signInSlowdown
        self.signUpEnabled = signUpEnabled
        self.postRateLimit = postRateLimit
        self.signInRateLimit = signInRateLimit
        self.authorizeRateLimit = authorizeRateLimit
        self.trustedProxies = trustedProxies
        self.resources = resources
        self.tokenLifetimes = tokenLifetimes
        self.connectionTimeouts = connectionTimeouts
        self.metricsAccess = metricsAccess
    }

    /// `<data directory>/limen.sqlite`.
    public var databasePath: String { (dataDirectory as NSString).appendingPathComponent("limen.sqlite") }
    /// `<data directory>/master.key`.
    public var masterKeyPath: String { (dataDirectory as NSString).appendingPathComponent("master.key") }

    /// The issuer for a server bound to `port`.
    package func issuer(boundPort port: Int) -> String {
        if let issuer { return issuer }
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "http://\(host):\(port)"
    }
}

/// The public client the `limen` CLI signs in with: native, loopback redirect on any port (RFC 8252 §7.3).
public enum SeedClients {
    /// The client ID of the CLI.
    public static let cliClientID = "limen-cli"
    /// The client ID of the hosted account page (``account(now:)``).
    public static let accountClientID = "limen-account"

    /// Whether `id` is a client of Limen Server's own (``accountClientID``): not listed, changed or removed by the
    /// admin API or `limen-server clients`, and never registered by them.
    public static func isInternal(_ id: String) -> Bool {
        id == accountClientID
    }

    /// `limen-account`: the hosted account page, on whose behalf a person signs in again before changing their
    /// account (``PendingAuthorization/init(reauthenticating:email:returnTo:client:browserBinding:now:)``). It has no
    /// redirect URI and no grant, so no authorization request names it and it never gets a code or a token; stored the
    /// first time it is used.
    public static func account(now: Date) -> ClientRecord {
        ClientRecord(
            id: accountClientID, name: "Your account", kind: .public, redirectURIs: [], grantTypes: [],
            isFirstParty: true, createdAt: now)
    }

    /// `limen-cli`: public, native, redirects to `http://127.0.0.1/callback` or `http://[::1]/callback` on any port.
    public static func cli(now: Date) -> ClientRecord {
        ClientRecord(
            id: cliClientID,
            name: "Limen CLI",
            kind: .public,
            isNative: true,
            redirectURIs: ["http://127.0.0.1/callback", "http://[::1]/callback"],
            grantTypes: [.authorizationCode, .refreshToken, .deviceCode],
            isFirstParty: true,
            createdAt: now
        )
    }
}
