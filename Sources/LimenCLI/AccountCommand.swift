import ArgumentParser
import Foundation
import Limen
import LimenLoopback

/// `limen account`: the signed-in user's account at a Limen Server — the identities they sign in with, two-step
/// sign-in, and deleting it.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Show the identities of the signed-in account, set up two-step sign-in, or delete the account.",
        subcommands: [AccountIdentitiesCommand.self, AccountTOTPCommand.self, AccountDeleteCommand.self]
    )
}

/// `limen account identities`: one line per identity, `KIND SUBJECT LINKED-AT`.
struct AccountIdentitiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identities",
        abstract: "List how the signed-in account signs in: kind, subject and when it was linked (a guest has none)."
    )

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures {
            let client = try await Profile(name: options.profile).savedClient()
            let identities = try await client.identities()
            if identities.isEmpty { StandardError.writeLine("No identities: this is a guest account.") }
            for identity in identities {
                writeOutput(
                    "\(identity.kind.rawValue) \(identity.subject) \(identity.createdAt.formatted(.iso8601))")
            }
        }
    }
}

/// `limen account delete`: deletes the signed-in account at the provider and the profile's session, after a
/// confirmation typed in the terminal (or `--yes`).
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the signed-in account at the provider, then sign out.",
        discussion: """
            The provider asks for a recent sign-in (Limen Server: 5 minutes by default). In a terminal, the browser \
            then opens for a new sign-in (as limen login does) and the deletion is tried once more; otherwise, log in \
            again first.
            """
    )

    @OptionGroup var options: ProfileOptions

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    @Flag(
        name: .customLong("no-browser"),
        help: "When a new sign-in is needed, print its URL to standard error instead of opening it.")
    var noBrowser = false

    func run() async throws {
        try await reportingFailures {
            let client = try await Profile(name: options.profile).savedClient()
            guard await client.currentTokens() != nil else { throw CLIFailure.notSignedIn }
            if !yes {
                let who = client.state.user.email ?? client.state.user.id ?? "this account"
                let answer = TerminalInput().line("Delete \(who) and everything in it? This cannot be undone. [y/N]: ")
                guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
                    throw CLIFailure(code: "cli.cancelled", message: "nothing was deleted")
                }
            }
            do throws(LimenError) {
                try await client.deleteAccount(
                    reauthenticating: isatty(STDIN_FILENO) == 1 ? .loopbackBrowser(noBrowser: noBrowser) : nil)
            } catch {
                throw CLIFailure(deleting: error, profile: options.profile)
            }
            writeOutput("account deleted")
        }
    }
}

extension CLIFailure {
    /// Why deleting the account under `profile` failed; when the provider wants a more recent sign-in, what to run
    /// first.
    init(deleting error: LimenError, profile: String) {
        guard case .account(let account) = error, case .reauthenticationRequired = account else {
            self.init(error)
            return
        }
        let login = profile == Profile.defaultName ? "limen login" : "limen login --profile \(profile)"
        self.init(
            code: account.code,
            message: "\(account.errorDescription ?? account.code) Log in again (\(login) …), then run this again.")
    }
}

extension Reauthentication {
    /// A new sign-in in the browser through a loopback redirect on a free port, as `limen login` signs in; with
    /// `noBrowser` the URL is printed to standard error instead of opened.
    static func loopbackBrowser(noBrowser: Bool) -> Reauthentication {
        Reauthentication { client, maxAge throws(LimenError) in
            StandardError.writeLine("The provider asks you to sign in again before the account is deleted.")
            let opener: BrowserOpener = noBrowser ? .printing { StandardError.writeLine($0) } : .system
            let agent: LoopbackUserAgent
            do throws(UserAgentError) {
                agent = try await LoopbackUserAgent.start(opener: opener)
            } catch {
                throw LimenError(error)
            }
            do throws(LimenError) {
                try await Reauthentication.browser(agent, redirectURI: agent.redirectURI).signIn(client, maxAge)
            } catch {
                await agent.stop()
                throw error
            }
        }
    }
}
