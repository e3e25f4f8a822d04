import ArgumentParser
import Foundation
import Hummingbird
import LimenServer
import Logging

/// `limen-server`: an OpenID provider on 127.0.0.1:8080 with its data in `./limen-data`, ready with no arguments.
@main
struct LimenServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limen-server",
        abstract: "Limen Server: an OpenID provider with an embedded SQLite database.",
        discussion: """
            With no arguments it listens on 127.0.0.1:8080, keeps its data in ./limen-data (limen.sqlite and a \
            0600 master.key, created on first run), and registers the public client limen-cli. SIGTERM or \
            Ctrl-C stops it gracefully.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "The folder for limen.sqlite and master.key.")
    var dataDir = "limen-data"

    @Option(help: "The public issuer URL (default: http://<host>:<port>).")
    var issuer: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let issuer {
            guard issuer.hasPrefix("https://") || issuer.hasPrefix("http://") else {
                throw ValidationError("--issuer must be an http(s) URL")
            }
            guard !issuer.hasSuffix("/"), !issuer.contains("?"), !issuer.contains("#") else {
                throw ValidationError("--issuer must have no trailing slash, query or fragment")
            }
        }
    }

    func run() async throws {
        var logger = Logger(label: "limen.server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration = ServerConfiguration(host: host, port: port, dataDirectory: dataDir, issuer: issuer)
        let provider: Provider
        do {
            provider = try await Provider.bootstrap(configuration: configuration, logger: logger)
        } catch {
            // A clear sentence (the file and the fix), not the error's debug description.
            FileHandle.standardError.write(Data("limen-server: \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        let app = LimenServerApplication.make(provider: provider, logger: logger) { issuer in
            // Written straight to the descriptor: `print` is buffered when stdout is a file or a pipe.
            FileHandle.standardOutput.write(
                Data(
                    """

                    Limen Server is running.
                      issuer:   \(issuer)
                      data:     \(configuration.databasePath) (master key: \(configuration.masterKeyPath))
                      client:   \(SeedClients.cliClientID) (public, loopback redirect on any port)

                    Try it from the repository root:
                      swift run limen login --issuer \(issuer) --client-id \(SeedClients.cliClientID)

                    """.utf8
                )
            )
        }
        do {
            // Runs a ServiceGroup that shuts down gracefully on SIGTERM and SIGINT.
            try await app.runService()
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}
