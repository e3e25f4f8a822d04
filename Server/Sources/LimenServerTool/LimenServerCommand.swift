import ArgumentParser
import Foundation
import Hummingbird
import LimenServer
import LimenServerCore
import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `limen-server`: an OpenID provider on 127.0.0.1:8080 with its data in `./limen-data`, ready with no arguments.
@main
struct LimenServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limen-server",
        abstract: "Limen Server: an OpenID provider with an embedded SQLite database.",
        subcommands: [
            ServeCommand.self, ClientsCommand.self, UsersCommand.self, KeysCommand.self, AdminTokenCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        // Requests then run on the event loops that read them instead of hopping to Swift's own thread pool: on a
        // small machine the hops (futex wake-ups and context switches) cost more than the work. Blocking work, such
        // as password hashing, already runs on NIO's thread pool.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        // Files the server creates (database, WAL, master key) are readable by their owner only.
        umask(0o077)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// `limen-server serve` (the default): runs the provider.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the OpenID provider (the default when no subcommand is given).",
        discussion: """
            With no arguments it listens on 127.0.0.1:8080, keeps its data in ./limen-data (limen.sqlite and a \
            0600 master.key, created on first run), and registers the public client limen-cli. SIGTERM or \
            Ctrl-C stops it gracefully.
            """
    )

    @Option(help: "The address to listen on (env LIMEN_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on, 0 for any free one (env LIMEN_PORT; default 8080).")
    var port: String?

    @Option(help: "The folder for limen.sqlite and master.key (env LIMEN_DATA_DIR; default ./limen-data).")
    var dataDir: String?

    @Option(help: "The public issuer URL (env LIMEN_ISSUER; default http://<host>:<port>).")
    var issuer: String?

    @Option(help: "A postgres:// URL instead of SQLite (env LIMEN_DATABASE_URL, which keeps the password out of ps).")
    var database: String?

    @Option(help: "The most PostgreSQL connections this node opens (env LIMEN_DATABASE_POOL_SIZE; default 20).")
    var databasePoolSize: String?

    @Option(help: "POSTs a second per client address, like 20/s, or off (env LIMEN_POST_RATE_LIMIT; default 20/s).")
    var postRateLimit: String?

    @Option(
        help: ArgumentHelp(
            "Sign-in and sign-up POSTs a second per client address, like 1/s or 0.2/s, or off (env "
                + "LIMEN_SIGN_IN_RATE_LIMIT; default 1/s)."))
    var signInRateLimit: String?

    @Option(help: "Whether people may create accounts: enabled or disabled (env LIMEN_SIGN_UP; default enabled).")
    var signUp: String?

    @Option(
        help: ArgumentHelp(
            "Who may read /metrics: loopback, token (the token in env LIMEN_METRICS_TOKEN), public or off (env "
                + "LIMEN_METRICS; default loopback)."))
    var metrics: String?

    @Option(
        help: ArgumentHelp(
            "/authorize requests and flow starts a second per client address, like 5/s, or off (env "
                + "LIMEN_AUTHORIZE_RATE_LIMIT; default 5/s)."))
    var authorizeRateLimit: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy whose X-Forwarded-For names the client address; repeat for several (env "
                + "LIMEN_TRUSTED_PROXIES, comma-separated).",
            valueName: "ip-address"
        )
    )
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("resource"),
        help: ArgumentHelp(
            "An API access tokens may be issued for (RFC 8707 resource indicator, an absolute URI); repeat for "
                + "several (env LIMEN_RESOURCES, comma-separated).",
            valueName: "uri"
        )
    )
    var resources: [String] = []

    @Option(
        name: .customLong("flow"),
        help: ArgumentHelp(
            "A flow definition file (YAML or JSON) that adds a flow or replaces a built-in one; repeat for several "
                + "(env LIMEN_FLOWS, comma-separated).",
            valueName: "file"
        )
    )
    var flows: [String] = []

    @Option(
        name: .customLong("mail-url"),
        help: ArgumentHelp(
            "Where mail goes: log: (default), smtp://host:port, smtp+starttls://user:password@host:587, "
                + "smtps://user:password@host:465 (env LIMEN_MAIL_URL, safer for a password), or an https:// webhook "
                + "signed with LIMEN_MAIL_WEBHOOK_SECRET."))
    var mailURL: String?

    @Option(name: .customLong("mail-from"), help: "The sender of the server's emails (env LIMEN_MAIL_FROM).")
    var mailFrom: String?

    @Option(
        name: .customLong("mail-ca-file"),
        help: ArgumentHelp(
            "CA certificates (PEM) trusted for the SMTP server or webhook instead of the system's "
                + "(env LIMEN_MAIL_CA_FILE)."))
    var mailCAFile: String?

    @Option(
        name: .customLong("email-code-length"),
        help: "Digits of a one-time code sent by email, 6–10 (env LIMEN_EMAIL_CODE_LENGTH; default 6).")
    var emailCodeLength: String?

    @Option(
        name: .customLong("email-code-mail-budget"),
        help:
            "Codes mailed per address and purpose, like 5/h,10/d (env LIMEN_EMAIL_CODE_MAIL_BUDGET; default 5/h,10/d).")
    var emailCodeMailBudget: String?

    @Option(
        name: .customLong("email-code-try-budget"),
        help:
            "Codes tried per address and purpose, like 10/h,20/d (env LIMEN_EMAIL_CODE_TRY_BUDGET; default 10/h,20/d).")
    var emailCodeTryBudget: String?

    @Option(
        name: .customLong("access-token-ttl"),
        help: "Access token lifetime, like 600 or 10m, 1m–24h (env LIMEN_ACCESS_TOKEN_TTL; default 10m).")
    var accessTokenTTL: String?

    @Option(
        name: .customLong("id-token-ttl"),
        help: "ID token lifetime, 1m–24h (env LIMEN_ID_TOKEN_TTL; default 5m).")
    var idTokenTTL: String?

    @Option(
        name: .customLong("refresh-token-ttl"),
        help: "Refresh token lifetime, like 30d, 1m–365d (env LIMEN_REFRESH_TOKEN_TTL; default 30d).")
    var refreshTokenTTL: String?

    @Option(
        help: "How long a rotated refresh token may be retried, 0s–60s (env LIMEN_REFRESH_REUSE_GRACE; default 10s).")
    var refreshReuseGrace: String?

    @Option(
        help: "How long a grant lives however often it is refreshed, 1h–1825d (env LIMEN_GRANT_MAX_LIFETIME; 90d).")
    var grantMaxLifetime: String?

    @Option(
        name: .customLong("anonymous-user-ttl"),
        help:
            "How long an anonymous user is kept after their last refresh, 1h–1825d (env LIMEN_ANONYMOUS_USER_TTL; 30d)."
    )
    var anonymousUserTTL: String?

    @Option(
        help: .init(
            "The former name of --account-change-max-age (env LIMEN_ACCOUNT_DELETION_MAX_AGE).", visibility: .hidden))
    var accountDeletionMaxAge: String?

    @Option(
        help: ArgumentHelp(
            "How recent a sign-in must be to link or unlink an identity or delete the account, 1m–24h "
                + "(env LIMEN_ACCOUNT_CHANGE_MAX_AGE; 5m)."))
    var accountChangeMaxAge: String?

    @Option(
        name: .customLong("password-hash-log-n"),
        help: "log2 of scrypt's N for new and changed passwords, 14–20 (env LIMEN_PASSWORD_HASH_LOG_N; default 17).")
    var passwordHashLogN: String?

    @Option(
        help: ArgumentHelp(
            "scrypt's parallelism p for new passwords, 1–16, at least OWASP's for N (env "
                + "LIMEN_PASSWORD_HASH_PARALLELISM; default 1)."))
    var passwordHashParallelism: String?

    @Option(
        help: "Seconds a client may take to send a request head, 1s–10m (env LIMEN_HEADER_READ_TIMEOUT; default 10s).")
    var headerReadTimeout: String?

    @Option(help: "Seconds a connection may stay idle, 1s–1h (env LIMEN_IDLE_TIMEOUT; default 60s).")
    var idleTimeout: String?

    @Option(help: "A YAML or JSON file of settings; flags and LIMEN_* variables win over it (env LIMEN_CONFIG).")
    var config: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        var logger = Logger(label: "limen.server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(
                    host: host, port: port, dataDirectory: dataDir, issuer: issuer, database: database,
                    databasePoolSize: databasePoolSize, postRateLimit: postRateLimit,
                    signInRateLimit: signInRateLimit, signUp: signUp, metrics: metrics,
                    authorizeRateLimit: authorizeRateLimit, trustedProxies: trustedProxies, resources: resources,
                    flows: flows, mailURL: mailURL, mailFrom: mailFrom, mailCAFile: mailCAFile,
                    emailCodeLength: emailCodeLength, emailCodeMailBudget: emailCodeMailBudget,
                    emailCodeTryBudget: emailCodeTryBudget, accessTokenLifetime: accessTokenTTL,
                    idTokenLifetime: idTokenTTL,
                    refreshTokenLifetime: refreshTokenTTL, refreshReuseGrace: refreshReuseGrace,
                    grantMaxLifetime: grantMaxLifetime, anonymousUserLifetime: anonymousUserTTL,
                    accountDeletionMaxAge: accountDeletionMaxAge,
                    accountChangeMaxAge: accountChangeMaxAge,
                    passwordHashLogN: passwordHashLogN,
                    passwordHashParallelism: passwordHashParallelism, headerReadTimeout: headerReadTimeout,
                    idleTimeout: idleTimeout, configFile: config),
                environment: ProcessInfo.processInfo.environment
            )
        } catch {
            throw ValidationError(error.errorDescription ?? error.code)
        }
        ServerMetrics.bootstrap()
        let composition: ServerComposition
        do {
            composition = try await ServerComposition.bootstrap(configuration: configuration, logger: logger)
        } catch {
            // A clear sentence (the file and the fix), not the error's debug description.
            FileHandle.standardError.write(Data("limen-server: \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        let app = LimenServerApplication.make(composition: composition, logger: logger) { issuer in
            // Written straight to the descriptor: `print` is buffered when stdout is a file or a pipe.
            FileHandle.standardOutput.write(
                Data(
                    """

                    Limen Server is running.
                      issuer:   \(issuer)
                      data:     \(configuration.databasePath) (master key: \(configuration.masterKeyPath))
                      client:   \(SeedClients.cliClientID) (public, loopback redirect on any port)

                    Try it from the repository root (create an account on the sign-in page, or first run
                    limen-server users add --email you@example.com):
                      swift run limen login --issuer \(issuer) --client-id \(SeedClients.cliClientID)

                    """.utf8
                )
            )
        }
        // Runs a ServiceGroup that shuts down gracefully on SIGTERM and SIGINT, and closes the store last.
        try await app.runService()
    }
}
