import ArgumentParser
import Foundation
import Limen
import LimenOIDC

/// `limen whoami`: prints the signed-in user's claims.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Print the signed-in user's validated ID token claims merged with UserInfo, as JSON."
    )

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures {
            let profile = try Profile(name: options.profile)
            let client = try await profile.savedClient()
            guard await client.currentTokens() != nil else { throw CLIFailure.notSignedIn }
            var claims = client.state.user.claims
            do throws(LimenError) {
                let info = try await client.userInfo()
                claims.merge(info.claims) { _, fresh in fresh }
            } catch .protocolViolation(.unsupported) {
                // The provider has no UserInfo endpoint: the ID token's claims are all there is.
            }
            writeOutput(try prettyJSON(claims: claims))
        }
    }
}
