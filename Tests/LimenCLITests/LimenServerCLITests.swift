import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The `limen` tool against the `limen-server` binary: two real processes and the test as the person in the browser.
@Suite(
    "limen end to end against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerCLITests {
    @Test("login through the hosted pages, then token, whoami and logout --revoke; the revoked session is gone")
    func lifecycle() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with { server in try await run(server, cli) }
    }

    private func run(_ server: LimenServerPeer, _ cli: CLIRunner) async throws {
        let login = try await cli.logIn(
            issuer: server.issuer.absoluteString, clientID: "limen-cli", port: UInt16(try FreePort.find()),
            scope: "openid email profile offline_access",
            browser: LimenServerBrowser(email: server.user.email, password: server.user.password))
        #expect(login.status == 0, "\(login.standardError)")
        let subject = login.trimmedOutput
        #expect(!subject.isEmpty)

        let token = try await cli.complete(["token"])
        #expect(token.status == 0, "\(token.standardError)")
        let jwt = try UnverifiedJWT(token.trimmedOutput)
        #expect(jwt.claims["sub"] == .string(subject))
        #expect(jwt.type == "at+jwt")

        let whoami = try await cli.complete(["whoami"])
        #expect(whoami.status == 0, "\(whoami.standardError)")
        let claims = try #require(try JSONSerialization.jsonObject(with: whoami.standardOutput) as? [String: Any])
        #expect(claims["email"] as? String == server.user.email)
        #expect(claims["sub"] as? String == subject)

        let logout = try await cli.complete(["logout", "--revoke"])
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(logout.trimmedOutput.split(separator: "\n").first == "signed out")
        #expect(!logout.errorLines.contains { $0.hasPrefix("warning: revocation failed") }, "Limen Server revokes")

        let after = try await cli.complete(["token"])
        #expect(after.status != 0)
        #expect(after.outputText.isEmpty)
    }

    @Test("login --device signs in once the person enters the code on the server's /device page and allows it")
    func deviceLogin() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with { server in try await deviceLogin(server, cli) }
    }

    private func deviceLogin(_ server: LimenServerPeer, _ cli: CLIRunner) async throws {
        let login = try await cli.withLaunched([
            "login", "--issuer", server.issuer.absoluteString, "--client-id", "limen-cli", "--device",
            "--scope", "openid email profile offline_access",
        ]) { running in
            let line = try await running.firstLine { $0.hasPrefix("Visit ") }
            let parts = line.dropFirst("Visit ".count).components(separatedBy: " and enter code ")
            let verificationURI = try #require(parts.first.flatMap(URL.init(string:)))
            let userCode = try #require(parts.last)
            #expect(verificationURI.absoluteString == server.issuer.absoluteString + "/device")
            let browser = LimenServerBrowser(email: server.user.email, password: server.user.password)
            _ = try await browser.approveDevice(verificationURI: verificationURI, userCode: userCode)
            return try await running.wait()
        }
        #expect(login.status == 0, "\(login.standardError)")
        let token = try await cli.complete(["token"])
        #expect(token.status == 0, "\(token.standardError)")
        #expect(try UnverifiedJWT(token.trimmedOutput).claims["sub"] == .string(login.trimmedOutput))
    }
}
