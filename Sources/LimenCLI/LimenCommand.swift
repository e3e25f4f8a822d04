import ArgumentParser
import Foundation
import Limen

/// `limen`: sign in to an OpenID Connect provider from the terminal and hand out its tokens.
@main
struct LimenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limen",
        abstract: "Sign in with OpenID Connect from the command line and print valid access tokens.",
        subcommands: [
            LoginCommand.self, TokenCommand.self, WhoamiCommand.self, LogoutCommand.self, JWTCommand.self,
            FlowCommand.self, SignupCommand.self, ProfileDataCommand.self, AccountCommand.self,
        ]
    )

    /// Sets up logging, then parses the arguments and runs the chosen subcommand.
    static func main() async {
        CLILogging.bootstrap()
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

/// The `--profile` option every session command shares.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: "The profile that holds the session (letters, digits, '-', '_').")
    var profile: String = Profile.defaultName
}

extension ProfileOptions {
    /// Runs `body` with the client of the profile's saved session (with `redirectURI`, for the flows it starts),
    /// reporting any failure as the CLI does (``reportingFailures(_:)``).
    func withSavedClient(redirectURI: URL? = nil, _ body: (AuthClient) async throws -> Void) async throws {
        try await reportingFailures {
            try await body(try await Profile(name: profile).savedClient(redirectURI: redirectURI))
        }
    }
}
