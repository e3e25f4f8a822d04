import ArgumentParser
import Foundation
import Limen
import LimenLoopback
import LimenOIDC

/// `limen login`: signs in through the browser (loopback redirect) or with a device code, and saves the profile.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in and save the profile's settings and session."
    )

    @Option(help: "The provider's issuer URL.")
    var issuer: String

    @Option(name: .customLong("client-id"), help: "The OAuth client ID.")
    var clientID: String

    @Option(
        name: .customLong("client-secret"),
        help: ArgumentHelp(
            "The client secret of a confidential client (stored encrypted).",
            discussion: "Prefer the LIMEN_CLIENT_SECRET environment variable: arguments show in process listings."))
    var clientSecret: String?

    /// `offline_access`: a terminal login is meant to last, not to end with a browser cookie at the provider.
    @Option(help: "Space-separated scopes to request.")
    var scope: String = "openid profile email offline_access"

    @Option(help: "The loopback port for the redirect (default: a free one).")
    var port: UInt16?

    @Flag(name: .customLong("no-browser"), help: "Print the authorization URL to standard error instead of opening it.")
    var noBrowser = false

    @Flag(help: "Use the device authorization grant instead of a browser redirect.")
    var device = false

    @Flag(help: "Sign in with email and password in the terminal (the server's sign-in flow).")
    var password = false

    @Flag(
        name: .customLong("email-code"),
        help: "Sign in with a code sent by email, typed in the terminal (the server's email-code flow).")
    var emailCode = false

    @Flag(
        help: "Sign in with a code sent by SMS to a phone number, typed in the terminal (the server's phone-code flow)."
    )
    var phone = false

    @Flag(help: "Sign in as a guest (the server's anonymous flow); link an email address later with limen signup.")
    var anonymous = false

    @Option(
        name: .customLong("allow-migration"),
        help: ArgumentHelp(
            "With --password, --email-code or --phone while a guest is signed in: whether another account may replace the guest"
                + " (true: carry its profile over, false: drop it).",
            valueName: "true|false"))
    var allowMigration: Bool?

    @Option(
        name: .customLong("redirect-uri"),
        help:
            "With --password, --email-code, --phone or --anonymous: a redirect URI registered for the client (nothing is opened)."
    )
    var redirectURI: String = FlowRun.defaultRedirectURI

    @Option(
        name: .customLong("identity-provider"),
        help: ArgumentHelp(
            "With the browser: go straight to one of Limen Server's upstream providers (idp_hint).", valueName: "id"))
    var identityProvider: String?

    @Option(
        name: .customLong("pin"),
        help: ArgumentHelp(
            "A pin of the issuer's key (sha256/ and the base64 SHA-256 of its SubjectPublicKeyInfo); give two or more"
                + " (the key in use and a backup). Every later command of the profile checks them.",
            valueName: "sha256/…"))
    var pins: [String] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "A PEM file of root certificates trusted besides the system's (a private certificate authority).",
            valueName: "path"))
    var caFile: String?

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures {
            let profile = try Profile(name: options.profile)
            let settings = ProfileSettings(
                issuer: try issuerURL(issuer),
                clientID: clientID,
                scopes: scope.split(separator: " ").map(String.init),
                pins: pins.isEmpty ? nil : pins,
                caFile: caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            )
            let secret =
                clientSecret
                ?? ProcessInfo.processInfo.environment["LIMEN_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
            let flows = [
                (password, "sign-in"), (emailCode, "email-code"), (phone, "phone-code"), (anonymous, "anonymous"),
            ]
            let chosen = flows.filter(\.0).map(\.1)
            if let flow = chosen.first {
                guard chosen.count == 1 else {
                    throw CLIFailure(
                        code: "cli.conflicting_options",
                        message: "give one of --password, --email-code, --phone, --anonymous")
                }
                let run = FlowRun(
                    profile: profile, settings: settings, clientSecret: secret, redirectURI: redirectURI,
                    allowMigration: allowMigration)
                return try await flow == "anonymous" ? run.runAnonymously() : run.run(flow)
            }
            let client = try profile.client(settings: settings, clientSecret: secret)
            let user: AuthState.User
            if device {
                user = try await client.signInWithDeviceCode { authorization in
                    StandardError.writeLine(
                        "Visit \(authorization.verificationURI.absoluteString) and enter code \(authorization.userCode)"
                    )
                }
            } else {
                let opener: BrowserOpener = noBrowser ? .printing { StandardError.writeLine($0) } : .system
                let agent: LoopbackUserAgent
                do throws(UserAgentError) {
                    agent = try await LoopbackUserAgent.start(port: port, opener: opener)
                } catch {
                    throw CLIFailure(LimenError(error))
                }
                do {
                    user = try await client.signIn(
                        using: agent, redirectURI: agent.redirectURI,
                        options: SignInOptions(identityProvider: identityProvider))
                } catch {
                    await agent.stop()
                    throw error
                }
            }
            try await profile.save(settings, clientSecret: secret)
            announceSignIn(of: user)
        }
    }
}
