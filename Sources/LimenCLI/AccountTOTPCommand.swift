import ArgumentParser
import Foundation
import Limen

/// `limen account totp`: the signed-in account's two-step sign-in with an authenticator app.
struct AccountTOTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Turn two-step sign-in with an authenticator app on or off, or say whether it is on.",
        subcommands: [AccountTOTPStatusCommand.self, AccountTOTPEnableCommand.self, AccountTOTPDisableCommand.self]
    )
}

/// `limen account totp status`: `off`, or `on since DATE, N recovery codes left`.
struct AccountTOTPStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say whether two-step sign-in is on, and how many recovery codes are left.")

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await options.withSavedClient { client in
            switch try await client.twoStepStatus() {
            case .disabled: writeOutput("off")
            case .enabled(let since, let left):
                writeOutput("on since \(since.formatted(.iso8601)), \(left) recovery codes left")
            }
        }
    }
}

/// `limen account totp enable`: shows the secret to add to an authenticator app, asks for the code it shows (again
/// after a wrong one), and prints the recovery codes, one per line.
struct AccountTOTPEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract:
            "Turn two-step sign-in on: add the key to an authenticator app, type its code, keep the recovery codes."
    )

    @OptionGroup var options: ProfileOptions

    @Option(
        name: .customLong("redirect-uri"),
        help: "A redirect URI registered for the client; the setup's flow is bound to it (nothing is opened).")
    var redirectURI: String = FlowRun.defaultRedirectURI

    func run() async throws {
        try await options.withSavedClient(redirectURI: URL(string: redirectURI)) { client in
            let enrolment = try await client.enrolTOTP()
            StandardError.writeLine("Add to your authenticator app:\n  \(enrolment.uri.absoluteString)")
            StandardError.writeLine("Setup key:\n  \(enrolment.secret)")
            let codes = try await Self.confirm(enrolment)
            StandardError.writeLine(
                "Two-step sign-in is on. Keep these recovery codes: each signs in once; they are not shown again.")
            codes.forEach(writeOutput)
        }
    }
}

extension AccountTOTPEnableCommand {
    /// The recovery codes once a code typed in the terminal turned `enrolment` on; a wrong code is asked again.
    static func confirm(_ enrolment: TOTPEnrolment) async throws -> [String] {
        while true {
            let code = try readCode("Code from your authenticator app: ")
            do throws(LimenError) {
                return try await enrolment.confirm(code: code)
            } catch {
                guard error == .account(.invalidCode) else { throw error }
                StandardError.writeLine("! The code is not correct: type the one your app shows now.")
            }
        }
    }
}

/// `limen account totp disable`: turns two-step sign-in off with a current code of the app or a recovery code.
struct AccountTOTPDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Turn two-step sign-in off, with a code of the app or a recovery code.")

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await options.withSavedClient { client in
            try await client.disableTOTP(code: try readCode("Code from your authenticator app, or a recovery code: "))
            writeOutput("off")
        }
    }
}

/// A code typed after `prompt`; the end of the input is a failure.
private func readCode(_ prompt: String) throws(CLIFailure) -> String {
    guard let code = TerminalInput().line(prompt) else {
        throw CLIFailure(code: "cli.input_ended", message: "the input ended before a code was typed")
    }
    return code
}
