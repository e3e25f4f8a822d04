import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// `limen flow`, `limen signup`, `limen login --password` and `--email-code` against the `limen-server` binary,
/// answered through a pipe (the hidden password prompt reads plain lines when standard input is no terminal) or a
/// pseudo-terminal.
@Suite(
    "limen flows against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct FlowCLITests {
    func limen(_ cli: CLIRunner, _ arguments: [String], input: String) async throws -> Subprocess.Result {
        try await Subprocess.capture(
            try CLIRunner.executable(), arguments: arguments, environment: cli.environment(), input: Data(input.utf8))
    }

    func connection(_ server: LimenServerPeer) -> [String] {
        ["--issuer", server.issuer.absoluteString, "--client-id", "limen-cli"]
    }

    @Test(
        "flow sign-in: the fields, then numbered buttons, a wrong password shown as the server's error, then a saved session"
    )
    func signIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            // The fields come before the choice; on the error node Enter keeps the email.
            let answers = "\(server.user.email)\nwrong password\n1\n\n\(server.user.password)\n1\n"
            let flow = try await limen(cli, ["flow", "sign-in"] + connection(server), input: answers)
            #expect(flow.status == 0, "\(flow.standardError)")
            #expect(flow.errorLines.contains("== Sign in"))
            #expect(flow.errorLines.contains { $0.hasPrefix("  2) Forgot your password?") })
            #expect(flow.errorLines.contains { $0.hasPrefix("  3) Create an account") })
            #expect(flow.errorLines.contains { $0.hasPrefix("! ") }, "the error node's message is shown")
            #expect(!flow.trimmedOutput.isEmpty, "the user's ID is printed")
            #expect(flow.errorLines.last == "Signed in as \(server.user.email) (user ID \(flow.trimmedOutput)).")

            let token = try await cli.complete(["token"])
            #expect(token.status == 0, "\(token.standardError)")
            #expect(try UnverifiedJWT(token.trimmedOutput).claims["sub"] == .string(flow.trimmedOutput))
        }
    }

    @Test("flow sign-in shows an upstream provider's IDP button with the command that opens it, and does not offer it")
    func idpButton() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let configuration = """
            identity_providers:
              - {id: partner, display_name: Partner ID, issuer: "http://127.0.0.1:1", client_id: limen}
            """
        try await LimenServerPeer.with(configuration: configuration, settings: ["--sign-in-rate-limit", "100/s"]) {
            server in
            let answers = "\(server.user.email)\n\(server.user.password)\n1\n"
            let flow = try await limen(cli, ["flow", "sign-in"] + connection(server), input: answers)
            #expect(flow.status == 0, "\(flow.standardError)")
            #expect(
                flow.errorLines.contains(
                    "(Continue with Partner ID: a web page `limen flow` cannot open; use `limen login"
                        + " --identity-provider partner`)"))
            #expect(!flow.errorLines.contains { $0.contains(") Continue with Partner ID") }, "not a numbered choice")
        }
    }

    @Test(
        "signup in a terminal: the email, the mailed code, and the device's checks re-ask a short or different password",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func signUp() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s", "--mail-url", sink.mailURL]) {
                server in
                let password = "a long enough password"
                let terminal = try await PseudoTerminal(
                    try CLIRunner.executable(), arguments: ["signup"] + connection(server),
                    environment: cli.environment())
                // Each step's fields first, then the button: the code is typed before "Create account" is chosen.
                #expect(terminal.wait(for: "Email address: "))
                terminal.type("new@example.com")
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                #expect(terminal.wait(for: "Code: "))
                terminal.type(try await sink.nextCode())
                #expect(terminal.wait(for: "Name: "))
                terminal.type("New Person")
                #expect(terminal.wait(for: "Password: "))
                terminal.type("short")
                #expect(terminal.wait(for: "Password again: "))
                terminal.type("other")
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                // Submitting, the fields the device's checks refuse are asked again, each after its problem.
                #expect(terminal.wait(for: "! Use between 8 and 1024 characters for your password."))
                #expect(terminal.wait(for: "Password: "))
                terminal.type(password)
                #expect(terminal.wait(for: "! The passwords do not match."))
                #expect(terminal.wait(for: "Password again: "))
                terminal.type(password)
                #expect(terminal.wait(for: "Signed in as new@example.com (user ID "))
                #expect(terminal.finish() == 0, "\(terminal.transcript)")

                let whoami = try await cli.complete(["whoami"])
                #expect(whoami.status == 0, "\(whoami.standardError)")
                #expect(whoami.outputText.contains("new@example.com"))
            }
        }
    }

    @Test("a button that sends no fields (a link to another flow) asks for none: empty fields are not refused")
    func linkSendsNoFields() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            // Enter for the email and the password, then "Create an account"; the input ends in the sign-up step.
            let flow = try await limen(cli, ["flow", "sign-in"] + connection(server), input: "\n\n3\n")
            #expect(flow.errorLines.contains("== Create your account"), "\(flow.standardError)")
            #expect(!flow.errorLines.contains { $0.contains("is required") }, "\(flow.standardError)")
            #expect(flow.errorLines.last?.hasPrefix("error: cli.input_ended") == true)
        }
    }

    @Test("login --password runs the sign-in flow; input that ends early fails with cli.input_ended")
    func loginPassword() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let login = try await limen(
                cli, ["login", "--password"] + connection(server),
                input: "\(server.user.email)\n\(server.user.password)\n1\n")
            #expect(login.status == 0, "\(login.standardError)")
            #expect(!login.trimmedOutput.isEmpty)

            let cut = try await limen(cli, ["flow", "sign-in"] + connection(server), input: "\(server.user.email)\n")
            #expect(cut.status != 0)
            #expect(cut.errorLines.last?.hasPrefix("error: cli.input_ended") == true)
        }
    }

    @Test(
        "login --email-code in a terminal: the email, then the code from the mail, and the session is saved",
        .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed"))
    func loginEmailCode() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s", "--mail-url", sink.mailURL]) {
                server in
                let terminal = try await PseudoTerminal(
                    try CLIRunner.executable(), arguments: ["login", "--email-code"] + connection(server),
                    environment: cli.environment())
                #expect(terminal.wait(for: "Email address: "))
                terminal.type(server.user.email)
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                #expect(terminal.wait(for: "Enter your code"))
                #expect(terminal.wait(for: "Code: "))
                terminal.type(try await sink.nextCode())
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                #expect(terminal.finish() == 0, "\(terminal.transcript)")

                let whoami = try await cli.complete(["whoami"])
                #expect(whoami.status == 0, "\(whoami.standardError)")
                #expect(whoami.outputText.contains(server.user.email))
            }
        }
    }

    @Test(
        "login --phone in a terminal: the number, then the code from the SMS; it says who is signed in",
        .enabled(if: SMSSink.unavailableReason == nil, "python3 cannot import cryptography"))
    func loginPhone() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await SMSSink.with { sink in
            try await LimenServerPeer.with(configuration: sink.configuration, settings: sink.settings) { server in
                let terminal = try await PseudoTerminal(
                    try CLIRunner.executable(),
                    arguments: ["login", "--phone", "--scope", "openid phone offline_access"] + connection(server),
                    environment: cli.environment())
                #expect(terminal.wait(for: "Phone number: "))
                terminal.type("+1 555 010 0142")
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                #expect(terminal.wait(for: "Code: "))
                terminal.type(try #require(try await sink.nextMessage()["code"]?.stringValue))
                #expect(terminal.wait(for: "Choose [1]: "))
                terminal.type("1")
                #expect(terminal.finish() == 0, "\(terminal.transcript)")
                #expect(terminal.transcript.contains("Signed in as +15550100142"))
            }
        }
    }

    @Test("in a terminal the email is echoed and the password is not, and the session is saved")
    func terminal() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let terminal = try await PseudoTerminal(
                try CLIRunner.executable(), arguments: ["flow", "sign-in"] + connection(server),
                environment: cli.environment())
            #expect(terminal.wait(for: "Email address: "))
            terminal.type(server.user.email)
            #expect(terminal.wait(for: "Password: "))
            terminal.type(server.user.password)
            #expect(terminal.wait(for: "Choose [1]: "))
            terminal.type("1")
            #expect(terminal.finish() == 0, "\(terminal.transcript)")
            #expect(terminal.transcript.contains(server.user.email), "the email is echoed")
            #expect(!terminal.transcript.contains(server.user.password), "the password is not")

            let token = try await cli.complete(["token"])
            #expect(token.status == 0, "\(token.standardError)")
        }
    }
}
