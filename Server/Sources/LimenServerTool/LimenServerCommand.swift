import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals

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
            EventsCommand.self,
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

            Each setting is read from its flag, else its environment variable, else its key in the --config file \
            (or LIMEN_CONFIG), else its default. A secret has no flag: other users of the machine can read flags.

            """ + "\n" + ServerSetting.helpText
    )

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Settings as --flag value or --flag=value, listed below; a file of settings with --config <file>.",
            valueName: "settings"))
    var settings: [String] = []

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
                flags: ConfigurationFlags(arguments: settings),
                environment: ProcessInfo.processInfo.environment
            )
        } catch {
            throw ValidationError(error.errorDescription ?? error.code)
        }
        ServerMetrics.bootstrap()
        let tracing: (any Service)?
        do {
            tracing = try ServerTracing.bootstrap(
                configuration: configuration, environment: ProcessInfo.processInfo.environment, logger: logger)
        } catch {
            throw ValidationError("otel_endpoint: \(error)")
        }
        let server = LimenServerService(configuration: configuration, logger: logger) { issuer in
            // Written straight to the descriptor: `print` is buffered when stdout is a file or a pipe.
            FileHandle.standardOutput.write(
                Data(
                    """

                    Limen Server is running.
                      issuer:     \(issuer)
                      database:   \(configuration.databaseDescription)
                      master key: \(configuration.masterKeyPath)
                      client:     \(SeedClients.cliClientID) (public, loopback redirect on any port)

                    Try it from the repository root (create an account on the sign-in page, or first run
                    limen-server users add --email you@example.com):
                      swift run limen login --issuer \(issuer) --client-id \(SeedClients.cliClientID)

                    """.utf8
                )
            )
        }
        do {
            // Shuts down gracefully on SIGTERM and SIGINT: the HTTP server stops first, the store next, the tracing
            // last (it exports the last spans).
            let services: [any Service] = if let tracing { [tracing, server] } else { [server] }
            try await ServiceGroup(
                configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            ).run()
        } catch let failure as ServerStartFailure {
            // A clear sentence (the file and the fix), not the error's debug description.
            FileHandle.standardError.write(Data("limen-server: \(failure.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
    }
}
