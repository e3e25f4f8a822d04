import ArgumentParser
import Foundation
import Limen

/// `limen flow NAME`: runs a server-driven flow (sign-in, sign-up, or one the operator defined) in the terminal and
/// saves the session under the profile.
struct FlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flow",
        abstract: "Run a server-driven flow in the terminal and save the session.",
        discussion: "Works with any flow the server offers: `sign-in`, `sign-up` or the operator's own."
    )

    @Argument(help: "The flow's name, e.g. sign-in or sign-up.")
    var name: String

    @OptionGroup var connection: FlowConnectionOptions

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures { try await connection.run(flow: name, profile: options.profile) }
    }
}

/// `limen signup`: creates an account through the server's `sign-up` flow and signs it in.
struct SignupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create an account in the terminal (the server's sign-up flow) and save the session."
    )

    @OptionGroup var connection: FlowConnectionOptions

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures { try await connection.run(flow: "sign-up", profile: options.profile) }
    }
}

/// Where a flow runs: the provider and client (by default the profile's saved ones), the scopes and the registered
/// redirect URI the flow's code is bound to.
struct FlowConnectionOptions: ParsableArguments {
    @Option(help: "The provider's issuer URL (default: the profile's).")
    var issuer: String?

    @Option(name: .customLong("client-id"), help: "The OAuth client ID (default: the profile's).")
    var clientID: String?

    @Option(help: "Space-separated scopes to request.")
    var scope: String = "openid profile email offline_access"

    @Option(
        name: .customLong("redirect-uri"),
        help: "A redirect URI registered for the client; the flow's code is bound to it (nothing is opened).")
    var redirectURI: String = FlowRun.defaultRedirectURI

    /// Runs `flow` for the settings given or saved under `profile`.
    func run(flow: String, profile name: String) async throws {
        let profile = try Profile(name: name)
        let saved = try profile.loadSettings()
        guard let issuerText = issuer ?? saved?.issuer.absoluteString, let clientID = clientID ?? saved?.clientID
        else {
            throw CLIFailure(code: "cli.missing_option", message: "give --issuer and --client-id (no saved profile)")
        }
        let issuer = try issuerURL(issuerText)
        // The saved profile's pins and roots keep guarding its issuer.
        let sameIssuer = saved?.issuer == issuer
        let settings = ProfileSettings(
            issuer: issuer, clientID: clientID, scopes: scope.split(separator: " ").map(String.init),
            pins: sameIssuer ? saved?.pins : nil, caFile: sameIssuer ? saved?.caFile : nil)
        try await FlowRun(profile: profile, settings: settings, clientSecret: nil, redirectURI: redirectURI)
            .run(flow)
    }
}

/// One flow run in the terminal, ending with the session saved under the profile and the user's ID printed.
struct FlowRun {
    /// The redirect URI of the `limen-cli` client Limen Server registers.
    static let defaultRedirectURI = "http://127.0.0.1/callback"

    let profile: Profile
    let settings: ProfileSettings
    let clientSecret: String?
    let redirectURI: String
    /// The `allow_migration` of the start (see ``SignInOptions/allowMigration``).
    var allowMigration: Bool?

    /// Runs `flow` to its end. A session saved under the profile goes with the start (a guest's is upgraded).
    func run(_ flow: String) async throws {
        let client = try await self.client()
        let start = await client.startFlow(flow, options: SignInOptions(allowMigration: allowMigration))
        let success = try await FlowTerminal(input: TerminalInput()).run(from: start)
        try await finish(success.user)
    }

    /// Signs in as a guest (the `anonymous` flow, asking nothing); a guest saved under the profile stays.
    func runAnonymously() async throws {
        let client = try await self.client()
        let user: AuthState.User
        do {
            user = try await client.signInAnonymously()
        } catch {
            throw CLIFailure(code: error.code, message: error.errorDescription ?? error.code)
        }
        try await finish(user, guest: true)
    }

    /// The profile's client for these settings, with the session saved under it when it is this provider's and
    /// client's (another's is dropped: its token would mean nothing here).
    private func client() async throws -> AuthClient {
        guard let redirect = URL(string: redirectURI), redirect.scheme != nil else {
            throw CLIFailure(LimenError.configuration(.invalidValue(key: "redirect-uri", reason: "not a URL")))
        }
        let client = try profile.client(settings: settings, clientSecret: clientSecret, redirectURI: redirect)
        let saved = try? profile.loadSettings()
        if saved?.issuer != settings.issuer || saved?.clientID != settings.clientID {
            await client.signOut(revoke: false)
        }
        return client
    }

    /// Saves the settings, says who is signed in (`guest`: a guest), and prints the user's ID.
    private func finish(_ user: AuthState.User, guest: Bool = false) async throws {
        try await profile.save(settings, clientSecret: clientSecret)
        announceSignIn(of: user, guest: guest)
    }
}

/// `text` as an issuer URL: http(s) with a host.
func issuerURL(_ text: String) throws -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
        url.host != nil
    else {
        throw CLIFailure(LimenError.configuration(.invalidValue(key: "issuer", reason: "not an http(s) URL")))
    }
    return url
}
