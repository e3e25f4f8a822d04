import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@testable import LimenCLI

/// `limen login --anonymous` and `limen account` against the `limen-server` binary, answered through a pipe or a
/// pseudo-terminal.
@Suite(
    "limen accounts against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct AccountCLITests {
    func limen(_ cli: CLIRunner, _ arguments: [String], input: String = "") async throws -> Subprocess.Result {
        try await Subprocess.capture(
            try CLIRunner.executable(), arguments: arguments, environment: cli.environment(), input: Data(input.utf8))
    }

    func connection(_ server: LimenServerPeer) -> [String] {
        ["--issuer", server.issuer.absoluteString, "--client-id", "limen-cli"]
    }

    @Test("login --anonymous: a guest without identities; login --password --allow-migration replaces it")
    func anonymous() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let guest = try await limen(cli, ["login", "--anonymous"] + connection(server))
            #expect(guest.status == 0, "\(guest.standardError)")
            #expect(!guest.trimmedOutput.isEmpty, "the guest's ID is printed")
            let token = try await cli.complete(["token"])
            let claims = try UnverifiedJWT(token.trimmedOutput).claims
            #expect(claims["sub"] == .string(guest.trimmedOutput))
            #expect(claims[AuthLevel.claimName] == .string("guest"))

            let none = try await cli.complete(["account", "identities"])
            #expect(none.status == 0, "\(none.standardError)")
            #expect(none.trimmedOutput.isEmpty)
            #expect(none.errorLines.contains("No identities: this is a guest account."))

            let again = try await limen(cli, ["login", "--anonymous"] + connection(server))
            #expect(again.trimmedOutput == guest.trimmedOutput, "a guest signed in stays")

            let login = try await limen(
                cli, ["login", "--password", "--allow-migration", "false"] + connection(server),
                input: "\(server.user.email)\n\(server.user.password)\n1\n")
            #expect(login.status == 0, "\(login.standardError)")
            #expect(!login.trimmedOutput.isEmpty && login.trimmedOutput != guest.trimmedOutput)

            let identities = try await cli.complete(["account", "identities"])
            #expect(identities.status == 0, "\(identities.standardError)")
            let lines = identities.trimmedOutput.split(separator: "\n").map { $0.split(separator: " ").prefix(2) }
            #expect(
                Set(lines.map { $0.joined(separator: " ") }) == [
                    "password \(server.user.email)", "email \(server.user.email)",
                ])
        }
    }

    @Test("account delete asks in a terminal: no keeps the account; --yes deletes it and signs out")
    func delete() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let login = try await limen(
                cli, ["login", "--password"] + connection(server),
                input: "\(server.user.email)\n\(server.user.password)\n1\n")
            #expect(login.status == 0, "\(login.standardError)")

            let terminal = try await PseudoTerminal(
                try CLIRunner.executable(), arguments: ["account", "delete"], environment: cli.environment())
            #expect(terminal.wait(for: "[y/N]: "))
            #expect(terminal.transcript.contains("Delete \(server.user.email)"))
            terminal.type("n")
            #expect(terminal.finish() != 0)
            #expect(terminal.transcript.contains("error: cli.cancelled: nothing was deleted"))
            #expect(try await cli.complete(["whoami"]).status == 0, "still signed in")

            let deleted = try await cli.complete(["account", "delete", "--yes"])
            #expect(deleted.status == 0, "\(deleted.standardError)")
            #expect(deleted.trimmedOutput == "account deleted")
            let whoami = try await cli.complete(["whoami"])
            #expect(whoami.status != 0)
            #expect(whoami.errorLines.last?.hasPrefix("error: not_signed_in") == true)

            let gone = try await limen(
                cli, ["login", "--password"] + connection(server),
                input: "\(server.user.email)\n\(server.user.password)\n1\n")
            #expect(gone.status != 0, "the account no longer signs in")
        }
    }

    @Test("a sign-in too old to delete the account tells the person to log in again, with the profile")
    func reauthentication() {
        let failure = CLIFailure(deleting: .account(.reauthenticationRequired(maxAge: 300)), profile: "work")
        #expect(failure.code == "account.reauthentication_required")
        #expect(failure.message.contains("5 minutes"))
        #expect(failure.message.contains("limen login --profile work"))
        #expect(
            CLIFailure(deleting: .account(.reauthenticationRequired(maxAge: nil)), profile: Profile.defaultName)
                .message.contains("(limen login …)"))
        #expect(CLIFailure(deleting: .notSignedIn, profile: "work") == CLIFailure.notSignedIn)
    }
}
