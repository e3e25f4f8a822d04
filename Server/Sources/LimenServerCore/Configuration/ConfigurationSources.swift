import Foundation
import LimenServerStorage

/// Settings given on the command line; `nil` means "not given".
public struct ConfigurationFlags: Sendable, Equatable {
    /// `--host`
    public var host: String?
    /// `--port`
    public var port: String?
    /// `--data-dir`
    public var dataDirectory: String?
    /// `--issuer`
    public var issuer: String?
    /// `--database`
    public var database: String?
    /// `--database-pool-size`
    public var databasePoolSize: String?
    /// `--post-rate-limit`
    public var postRateLimit: String?
    /// `--sign-in-rate-limit`
    public var signInRateLimit: String?
    /// `--sign-up`
    public var signUp: String?
    /// `--metrics`
    public var metrics: String?
    /// `--authorize-rate-limit`
    public var authorizeRateLimit: String?
    /// `--trusted-proxy`, repeated; `nil` or empty when not given.
    public var trustedProxies: [String]?
    /// `--resource`, repeated; `nil` or empty when not given.
    public var resources: [String]?
    /// `--flow`, repeated: flow definition files; `nil` or empty when not given.
    public var flows: [String]?
    /// `--mail-url`
    public var mailURL: String?
    /// `--mail-from`
    public var mailFrom: String?
    /// `--mail-ca-file`
    public var mailCAFile: String?
    /// `--email-code-length`
    public var emailCodeLength: String?
    /// `--email-code-mail-budget`
    public var emailCodeMailBudget: String?
    /// `--email-code-try-budget`
    public var emailCodeTryBudget: String?
    /// `--access-token-ttl`
    public var accessTokenLifetime: String?
    /// `--id-token-ttl`
    public var idTokenLifetime: String?
    /// `--refresh-token-ttl`
    public var refreshTokenLifetime: String?
    /// `--refresh-reuse-grace`
    public var refreshReuseGrace: String?
    /// `--grant-max-lifetime`
    public var grantMaxLifetime: String?
    /// `--anonymous-user-ttl`
    public var anonymousUserLifetime: String?
    /// `--account-deletion-max-age`, the former name of `--account-change-max-age`
    public var accountDeletionMaxAge: String?
    /// `--account-change-max-age`
    public var accountChangeMaxAge: String?
    /// `--password-hash-log-n`
    public var passwordHashLogN: String?
    /// `--password-hash-parallelism`
    public var passwordHashParallelism: String?
    /// `--header-read-timeout`
    public var headerReadTimeout: String?
    /// `--idle-timeout`
    public var idleTimeout: String?
    /// `--config`
    public var configFile: String?

    /// Creates a set of flags.
    public init(
        host: String? = nil,
        port: String? = nil,
        dataDirectory: String? = nil,
        issuer: String? = nil,
        database: String? = nil,
        databasePoolSize: String? = nil,
        postRateLimit: String? = nil,
        signInRateLimit: String? = nil,
        signUp: String? = nil,
        metrics: String? = nil,
        authorizeRateLimit: String? = nil,
        trustedProxies: [String]? = nil,
        resources: [String]? = nil,
        flows: [String]? = nil,
        mailURL: String? = nil,
        mailFrom: String? = nil,
        mailCAFile: String? = nil,
        emailCodeLength: String? = nil,
        emailCodeMailBudget: String? = nil,
        emailCodeTryBudget: String? = nil,
        accessTokenLifetime: String? = nil,
        idTokenLifetime: String? = nil,
        refreshTokenLifetime: String? = nil,
        refreshReuseGrace: String? = nil,
        grantMaxLifetime: String? = nil,
        anonymousUserLifetime: String? = nil,
        accountDeletionMaxAge: String? = nil,
        accountChangeMaxAge: String? = nil,
        passwordHashLogN: String? = nil,
        passwordHashParallelism: String? = nil,
        headerReadTimeout: String? = nil,
        idleTimeout: String? = nil,
        configFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.issuer = issuer
        self.database = database
        self.databasePoolSize = databasePoolSize
        self.postRateLimit = postRateLimit
        self.signInRateLimit = signInRateLimit
        self.signUp = signUp
        self.metrics = metrics
        self.authorizeRateLimit = authorizeRateLimit
        self.trustedProxies = trustedProxies
        self.resources = resources
        self.flows = flows
        self.mailURL = mailURL
        self.mailFrom = mailFrom
        self.mailCAFile = mailCAFile
        self.emailCodeLength = emailCodeLength
        self.emailCodeMailBudget = emailCodeMailBudget
        self.emailCodeTryBudget = emailCodeTryBudget
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshReuseGrace = refreshReuseGrace
        self.grantMaxLifetime = grantMaxLifetime
        self.anonymousUserLifetime = anonymousUserLifetime
        self.accountDeletionMaxAge = accountDeletionMaxAge
        self.accountChangeMaxAge = accountChangeMaxAge
        self.passwordHashLogN = passwordHashLogN
        self.passwordHashParallelism = passwordHashParallelism
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
        self.configFile = configFile
    }
}

extension ServerConfiguration {
    /// The environment variables read, by setting.
    public enum EnvironmentKey {
        /// The listening address.
        public static let host = "LIMEN_HOST"
        /// The listening port.
        public static let port = "LIMEN_PORT"
        /// The data folder.
        public static let dataDirectory = "LIMEN_DATA_DIR"
        /// The public issuer URL.
        public static let issuer = "LIMEN_ISSUER"
        /// A `postgres://` URL selecting PostgreSQL.
        public static let database = "LIMEN_DATABASE_URL"
        /// The most PostgreSQL connections a node opens.
        public static let databasePoolSize = "LIMEN_DATABASE_POOL_SIZE"
        /// POSTs per second per client address (`20/s`), or `off`.
        public static let postRateLimit = "LIMEN_POST_RATE_LIMIT"
        /// Sign-in and sign-up POSTs per second per client address (`1/s`), or `off`.
        public static let signInRateLimit = "LIMEN_SIGN_IN_RATE_LIMIT"
        /// Whether people may create accounts on the sign-up page: `enabled` or `disabled`.
        public static let signUp = "LIMEN_SIGN_UP"
        /// Who may read `/metrics`: `loopback`, `token`, `public` or `off`.
        public static let metrics = "LIMEN_METRICS"
        /// The bearer token `/metrics` asks for (at least 32 characters); never a flag, which other users could read.
        public static let metricsToken = "LIMEN_METRICS_TOKEN"
        /// `GET /authorize` requests per second per client address (`5/s`), or `off`.
        public static let authorizeRateLimit = "LIMEN_AUTHORIZE_RATE_LIMIT"
        /// The reverse proxies trusted for `X-Forwarded-For`, as a comma-separated list of IP addresses.
        public static let trustedProxies = "LIMEN_TRUSTED_PROXIES"
        /// The RFC 8707 resources (APIs) access tokens may name, as a comma-separated list of absolute URIs.
        public static let resources = "LIMEN_RESOURCES"
        /// Flow definition files (YAML or JSON), comma-separated: each adds a flow or replaces a built-in one.
        public static let flows = "LIMEN_FLOWS"
        /// Where mail goes: `log:`, `smtp://host:port`, `smtp+starttls://user:password@host:587`,
        /// `smtps://user:password@host:465`, `https://…` (a signed webhook); never echoed.
        public static let mailURL = "LIMEN_MAIL_URL"
        /// The sender address of the server's emails.
        public static let mailFrom = "LIMEN_MAIL_FROM"
        /// CA certificates (PEM) trusted for the SMTP server or webhook instead of the system's.
        public static let mailCAFile = "LIMEN_MAIL_CA_FILE"
        /// The key that signs webhook POSTs (at least 32 characters); never a flag, which other users could read.
        public static let mailWebhookSecret = "LIMEN_MAIL_WEBHOOK_SECRET"
        /// How many digits a one-time code sent by email has (6–10).
        public static let emailCodeLength = "LIMEN_EMAIL_CODE_LENGTH"
        /// How many one-time codes one address may be mailed per purpose (`5/h,10/d`).
        public static let emailCodeMailBudget = "LIMEN_EMAIL_CODE_MAIL_BUDGET"
        /// How many one-time codes may be tried for one address per purpose (`10/h,20/d`).
        public static let emailCodeTryBudget = "LIMEN_EMAIL_CODE_TRY_BUDGET"
        /// The server's access token lifetime (`600`, `10m`).
        public static let accessTokenLifetime = "LIMEN_ACCESS_TOKEN_TTL"
        /// The ID token lifetime.
        public static let idTokenLifetime = "LIMEN_ID_TOKEN_TTL"
        /// The server's refresh token lifetime (`30d`).
        public static let refreshTokenLifetime = "LIMEN_REFRESH_TOKEN_TTL"
        /// How long a rotated refresh token may be retried with the same answer (`10s`).
        public static let refreshReuseGrace = "LIMEN_REFRESH_REUSE_GRACE"
        /// How long a grant lives from its creation however often it is refreshed (`90d`).
        public static let grantMaxLifetime = "LIMEN_GRANT_MAX_LIFETIME"
        /// How long an anonymous user is kept after their last refresh (`30d`).
        public static let anonymousUserLifetime = "LIMEN_ANONYMOUS_USER_TTL"
        /// The former name of ``accountChangeMaxAge``, still read.
        public static let accountDeletionMaxAge = "LIMEN_ACCOUNT_DELETION_MAX_AGE"
        /// How recent a sign-in must be for an account change: linking, unlinking, deleting (`5m`).
        public static let accountChangeMaxAge = "LIMEN_ACCOUNT_CHANGE_MAX_AGE"
        /// log2 of scrypt's cost N for new password hashes.
        public static let passwordHashLogN = "LIMEN_PASSWORD_HASH_LOG_N"
        /// scrypt's parallelism p for new password hashes.
        public static let passwordHashParallelism = "LIMEN_PASSWORD_HASH_PARALLELISM"
        /// Seconds a client may take to send a request head (`10s`).
        public static let headerReadTimeout = "LIMEN_HEADER_READ_TIMEOUT"
        /// Seconds a connection may stay idle (`60s`).
        public static let idleTimeout = "LIMEN_IDLE_TIMEOUT"
        /// The issuers whose tokens `/token` exchanges (RFC 8693), as the file's `trusted_issuers` list in JSON.
        public static let trustedIssuers = "LIMEN_TRUSTED_ISSUERS"
        /// Sign in with Apple, as the file's `apple` mapping in JSON (`{"bundle_ids": ["com.example.app"]}`).
        public static let apple = "LIMEN_APPLE"
        /// The upstream OpenID providers of the hosted pages, as the file's `identity_providers` list in JSON (a safer
        /// place than the file for their client secrets).
        public static let identityProviders = "LIMEN_IDENTITY_PROVIDERS"
        /// A YAML or JSON configuration file.
        public static let configFile = "LIMEN_CONFIG"
    }

    /// The configuration from flags, then environment variables, then the configuration file (`--config` or
    /// `LIMEN_CONFIG`), then defaults; a bad value is an error naming the flag, variable or file key it came from.
    ///
    /// ```swift
    /// let configuration = try ServerConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment)
    /// ```
    public static func resolve(
        flags: ConfigurationFlags,
        environment: [String: String]
    ) throws(ConfigurationError) -> ServerConfiguration {
        let file = try (flags.configFile ?? environment[EnvironmentKey.configFile]).map {
            path throws(ConfigurationError) in try ConfigurationFile.load(path: path)
        }
        let pick = SettingLookup(environment: environment, file: file)
        var configuration = ServerConfiguration()
        if let (value, key) = pick(flags.host, "--host", EnvironmentKey.host, "host") {
            guard !value.isEmpty, !value.contains("/"), !value.contains(" ") else {
                throw ConfigurationError(key: key, value: value, reason: "expected an IP address or host name")
            }
            configuration.host = value
        }
        if let (value, key) = pick(flags.port, "--port", EnvironmentKey.port, "port") {
            guard let port = Int(value), (0...65535).contains(port) else {
                throw ConfigurationError(key: key, value: value, reason: "expected a port number from 0 to 65535")
            }
            configuration.port = port
        }
        if let (value, key) = pick(flags.dataDirectory, "--data-dir", EnvironmentKey.dataDirectory, "data_dir") {
            guard !value.isEmpty else { throw ConfigurationError(key: key, value: value, reason: "expected a folder") }
            configuration.dataDirectory = value
        }
        if let (value, key) = pick(flags.issuer, "--issuer", EnvironmentKey.issuer, "issuer") {
            if let reason = issuerProblem(value) { throw ConfigurationError(key: key, value: value, reason: reason) }
            configuration.issuer = value
        }
        if let (value, key) = pick(flags.database, "--database", EnvironmentKey.database, "database_url") {
            guard let scheme = URLComponents(string: value)?.scheme, ["postgres", "postgresql"].contains(scheme) else {
                throw ConfigurationError(
                    key: key, value: "(hidden)", reason: "expected postgres://user:password@host:port/database")
            }
            configuration.databaseURL = value
        }
        if let (size, _, _) = try pick.integer(
            flags.databasePoolSize, "--database-pool-size", EnvironmentKey.databasePoolSize, "database_pool_size",
            in: PostgresStore.maximumConnectionsRange, expected: "a number of connections")
        {
            configuration.databasePoolSize = size
        }
        if let limit = try pick.rateLimit(
            flags.postRateLimit, "--post-rate-limit", EnvironmentKey.postRateLimit, "post_rate_limit")
        {
            configuration.postRateLimit = limit
        }
        if let limit = try pick.rateLimit(
            flags.authorizeRateLimit, "--authorize-rate-limit", EnvironmentKey.authorizeRateLimit,
            "authorize_rate_limit")
        {
            configuration.authorizeRateLimit = limit
        }
        let proxyFlags = flags.trustedProxies.flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") }
        if let (value, key) = pick(proxyFlags, "--trusted-proxy", EnvironmentKey.trustedProxies, "trusted_proxies") {
            let entries = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard let proxies = TrustedProxies(entries) else {
                throw ConfigurationError(
                    key: key,
                    value: entries.first { TrustedProxies.canonical($0) == nil } ?? value,
                    reason: "expected IP addresses (no ranges, no ports), separated by commas"
                )
            }
            configuration.trustedProxies = proxies
        }
        let resourceFlags = flags.resources.flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") }
        if let (value, key) = pick(resourceFlags, "--resource", EnvironmentKey.resources, "resources") {
            let resources = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if let invalid = resources.first(where: { !ResourceIndicator.isValid($0) }) {
                throw ConfigurationError(
                    key: key, value: invalid,
                    reason: "expected absolute URIs without a fragment (RFC 8707), separated by commas")
            }
            configuration.resources = resources
        }
        try resolveLifetimes(flags: flags, pick: pick, into: &configuration)
        try resolvePasswordHashing(flags: flags, pick: pick, into: &configuration)
        try resolveConnectionTimeouts(flags: flags, pick: pick, into: &configuration)
        try resolveSignIn(flags: flags, pick: pick, into: &configuration)
        try resolveMail(flags: flags, pick: pick, into: &configuration)
        try resolveMetrics(flags: flags, pick: pick, into: &configuration)
        configuration.profileSchema = file?.profileSchema
        if let text = environment[EnvironmentKey.trustedIssuers] {
            configuration.trustedIssuers = try TrustedIssuer.list(parsing: text, key: EnvironmentKey.trustedIssuers)
        } else if let issuers = file?.trustedIssuers {
            configuration.trustedIssuers = issuers
        }
        if let text = environment[EnvironmentKey.apple] {
            configuration.apple = try AppleSignIn(parsing: text, key: EnvironmentKey.apple)
        } else if let apple = file?.apple {
            configuration.apple = apple
        }
        if let text = environment[EnvironmentKey.identityProviders] {
            configuration.identityProviders = try IdentityProvider.list(
                parsing: text, key: EnvironmentKey.identityProviders)
        } else if let providers = file?.identityProviders {
            configuration.identityProviders = providers
        }
        return configuration
    }

    /// Why `issuer` cannot be an issuer identifier (OpenID Connect Discovery §3, RFC 8414 §2), or `nil` if it can.
    static func issuerProblem(_ issuer: String) -> String? {
        guard let components = URLComponents(string: issuer), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "expected an absolute URL such as https://id.example.com" }
        guard components.query == nil, components.fragment == nil else { return "an issuer has no query or fragment" }
        guard !issuer.hasSuffix("/") else { return "an issuer has no trailing slash" }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            return "the issuer must use https (http only on a loopback host)"
        }
        return nil
    }
}
