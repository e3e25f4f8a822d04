import Foundation
import Limen
import LimenOIDC
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
        let server = try await LimenServerPeer.start()
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        do {
            try await run(server, cli)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func run(_ server: LimenServerPeer, _ cli: CLIRunner) async throws {
        let issuer = server.issuer.absoluteString
        let port = try FreePort.find()
        let running = try cli.launch([
            "login", "--issuer", issuer, "--client-id", "limen-cli", "--port", String(port), "--no-browser",
            "--scope", "openid email profile offline_access",
        ])
        do {
            let line = await running.firstErrorLine { $0.hasPrefix(issuer) }
            let authorizationURL = try #require(line.flatMap(URL.init(string:)), "no authorization URL: \(running)")
            let redirectURI = try #require(URL(string: "http://127.0.0.1:\(port)/callback"))
            let callback = try await LimenServerBrowser(email: server.user.email, password: server.user.password)
                .authorize(url: authorizationURL, callback: CallbackMatcher(redirectURI: redirectURI))
            let page = try await URLSessionTransport().send(HTTPRequest(url: callback))
            #expect(page.status == 200)
        } catch {
            running.terminate()
            _ = await running.wait()
            throw error
        }
        let login = await running.wait()
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
}
