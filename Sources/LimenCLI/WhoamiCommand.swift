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
            if let info = try await Self.userInfoIfSupported(client) {
                claims.merge(info) { _, fresh in fresh }
            }
            writeOutput(try prettyJSON(claims: claims))
        }
    }

    /// The UserInfo claims, or `nil` when the provider has no UserInfo endpoint (the ID token's claims are then
    /// all there is).
    private static func userInfoIfSupported(_ client: AuthClient) async throws -> [String: JSONValue]? {
        let error: LimenError
        do {
            return try await client.userInfo().claims
        } catch let failure {
            error = failure
        }
        if case .protocolViolation(let violation) = error, case .unsupported = violation { return nil }
        throw error
    }
}
