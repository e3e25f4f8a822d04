import ArgumentParser
import Foundation
import Limen

/// `limen logout`: ends the profile's session, optionally revoking its tokens at the provider.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out, deleting the stored session."
    )

    @OptionGroup var options: ProfileOptions

    @Flag(help: "Revoke the tokens at the provider too.")
    var revoke = false

    func run() async throws {
        try await reportingFailures {
            let profile = try Profile(name: options.profile)
            let client = try await profile.savedClient()
            let result = await client.signOut(revoke: revoke)
            if let error = result.revocationError {
                StandardError.writeLine(
                    "warning: revocation failed: \(error.code): \(error.errorDescription ?? error.code)")
            }
            writeOutput("signed out")
            if let endSession = result.endSessionURL {
                writeOutput("End the provider session at: \(endSession.absoluteString)")
            }
        }
    }
}
