import ArgumentParser

/// `limen`: sign in to an OpenID Connect provider from the terminal and hand out its tokens.
@main
struct LimenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limen",
        abstract: "Sign in with OpenID Connect from the command line and print valid access tokens.",
        subcommands: [
            LoginCommand.self, TokenCommand.self, WhoamiCommand.self, LogoutCommand.self, JWTCommand.self,
        ]
    )
}

/// The `--profile` option every session command shares.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: "The profile that holds the session (letters, digits, '-', '_').")
    var profile: String = Profile.defaultName
}
