import ArgumentParser
import Foundation
import Limen
import LimenOIDC

/// `limen jwt`: JWT utilities.
struct JWTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "JWT utilities.",
        subcommands: [Decode.self]
    )

    /// `limen jwt decode TOKEN`: shows a JWT's header and payload without verifying anything.
    struct Decode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a JWT's header and payload as JSON (the signature is NOT verified)."
        )

        @Argument(help: "The compact JWT.")
        var token: String

        func run() async throws {
            try await reportingFailures {
                let jwt: UnverifiedJWT
                do throws(JWTDecodingError) {
                    jwt = try UnverifiedJWT(token.trimmingCharacters(in: .whitespacesAndNewlines))
                } catch {
                    throw CLIFailure(code: error.code, message: error.errorDescription ?? error.code)
                }
                writeOutput("Header (not verified):")
                writeOutput(try prettyJSON(claims: jwt.header))
                writeOutput("Payload (not verified):")
                writeOutput(try prettyJSON(claims: jwt.claims))
            }
        }
    }
}
