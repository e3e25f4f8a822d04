import ArgumentParser
import Foundation
import Limen

/// `limen token`: prints a valid access token, refreshing the session when needed.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (refreshed if needed)."
    )

    @OptionGroup var options: ProfileOptions

    @Option(name: .customLong("min-ttl"), help: "Refresh unless the token stays valid for at least this many seconds.")
    var minimumTimeToLive: Double?

    @Flag(
        name: .customLong("exec-credential"),
        help: "Print a Kubernetes ExecCredential (client.authentication.k8s.io/v1).")
    var execCredential = false

    func run() async throws {
        try await reportingFailures {
            let profile = try Profile(name: options.profile)
            let client = try await profile.savedClient()
            let hadSession = await client.currentTokens() != nil
            guard let token = try await client.validAccessToken(minimumTimeToLive: minimumTimeToLive) else {
                throw hadSession ? CLIFailure.sessionExpired : CLIFailure.notSignedIn
            }
            guard execCredential else {
                writeOutput(token)
                return
            }
            let expiresAt = await client.currentTokens()?.expiresAt
            writeOutput(try prettyJSON(ExecCredential(token: token, expiresAt: expiresAt)))
        }
    }
}

/// A Kubernetes `ExecCredential` for `client-go` credential plugins.
struct ExecCredential: Encodable {
    struct Status: Encodable {
        var token: String
        var expirationTimestamp: String?
    }

    var apiVersion = "client.authentication.k8s.io/v1"
    var kind = "ExecCredential"
    var status: Status

    init(token: String, expiresAt: Date?) {
        status = Status(token: token, expirationTimestamp: expiresAt.map(Self.rfc3339))
    }

    /// `2026-01-02T03:04:05Z`: RFC 3339 in UTC, as Kubernetes expects.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
