import Foundation
import Limen
import LimenTestSupport
import TestSupport
import Testing

/// Two-step sign-in in the terminal: `limen flow totp-enrol` with the profile's session shows the setup key and the
/// recovery codes, `limen login --password` then asks for the second step, and `limen account totp` turns it on, says
/// whether it is on and turns it off.
extension FlowCLITests {
    @Test("flow totp-enrol shows the URI, the setup key and ten recovery codes; login --password then asks for a code")
    func enrolThenSignIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let provider = connection(server)
            let credentials = "\(server.user.email)\n\(server.user.password)\n1\n"
            let first = try await limen(cli, ["login", "--password"] + provider, input: credentials)
            #expect(first.status == 0, "\(first.standardError)")

            // The profile's session goes with the start: the setup is for the user signed in.
            let terminal = try await PseudoTerminal(
                try CLIRunner.executable(), arguments: ["flow", "totp-enrol"], environment: cli.environment())
            #expect(terminal.wait(for: "Add to your authenticator app"))
            #expect(terminal.wait(for: "Code from your authenticator app: "))
            let shown = Self.lines(terminal.transcript)
            #expect(shown.contains { $0.hasPrefix("  otpauth://totp/") })
            let secret = try #require(shown.firstIndex(of: "Setup key").map { shown[$0 + 1] })
            let app = try #require(TestAuthenticatorApp(base32: secret.trimmingCharacters(in: .whitespaces)))
            terminal.type(app.code())
            #expect(terminal.wait(for: "Recovery codes"))
            #expect(terminal.finish() == 0, "\(terminal.transcript)")
            let all = Self.lines(terminal.transcript)
            let codesStart = try #require(all.firstIndex(of: "Recovery codes")).advanced(by: 1)
            let codes = all[codesStart...].prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(codes.count == 10, "\(terminal.transcript)")

            // The setup used the current step's code: the app's next one answers the second step.
            let answers = credentials + "\(app.code(steps: 1))\n\n1\n"
            let login = try await limen(cli, ["login", "--password"] + provider, input: answers)
            #expect(login.status == 0, "\(login.standardError)")
            #expect(login.errorLines.contains("== Two-step sign-in"))
            #expect(login.errorLines.last?.hasPrefix("Signed in as \(server.user.email)") == true)

            let status = try await cli.complete(["account", "totp", "status"])
            #expect(
                status.trimmedOutput.hasPrefix("on since ")
                    && status.trimmedOutput.hasSuffix(", 10 recovery codes left"))
            let off = try await limen(cli, ["account", "totp", "disable"], input: "\(try #require(codes.first))\n")
            #expect(off.status == 0, "\(off.standardError)")
            #expect(try await cli.complete(["account", "totp", "status"]).trimmedOutput == "off")
        }
    }

    @Test("account totp enable shows the key, asks again after a wrong code, and prints ten recovery codes")
    func accountTOTPEnable() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let credentials = "\(server.user.email)\n\(server.user.password)\n1\n"
            let first = try await limen(cli, ["login", "--password"] + connection(server), input: credentials)
            #expect(first.status == 0, "\(first.standardError)")

            let terminal = try await PseudoTerminal(
                try CLIRunner.executable(), arguments: ["account", "totp", "enable"], environment: cli.environment())
            #expect(terminal.wait(for: "Code from your authenticator app: "), "\(terminal.transcript)")
            let shown = Self.lines(terminal.transcript)
            let secret = try #require(shown.firstIndex(of: "Setup key:").map { shown[$0 + 1] })
            let app = try #require(TestAuthenticatorApp(base32: secret.trimmingCharacters(in: .whitespaces)))
            terminal.type(app.code(steps: 10))
            #expect(terminal.wait(for: "! The code is not correct"))
            #expect(terminal.wait(for: "Code from your authenticator app: "))
            terminal.type(app.code())
            #expect(terminal.wait(for: "Two-step sign-in is on."))
            #expect(terminal.finish() == 0, "\(terminal.transcript)")
            let printed = Self.lines(terminal.transcript).drop { !$0.hasPrefix("Two-step sign-in is on.") }.dropFirst()
            #expect(printed.count == 10, "\(terminal.transcript)")
        }
    }

    /// The terminal's lines, without the carriage returns it adds.
    static func lines(_ transcript: String) -> [String] {
        transcript.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
    }
}
