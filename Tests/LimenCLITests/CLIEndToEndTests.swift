import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The `limen` tool against glewlwyd, a third-party OpenID provider running for real on 127.0.0.1.
@Suite(
    "limen end to end against glewlwyd",
    .enabled(if: GlewlwydPeer.unavailableReason == nil, "glewlwyd is not installed (Tests/Peers/glewlwyd/install.sh)"),
    .serialized
)
struct CLIEndToEndTests {
    func withPeer(_ body: (GlewlwydPeer, CLIRunner) async throws -> Void) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await GlewlwydPeer.with { peer in try await body(peer, cli) }
    }

    /// `limen login` through the loopback redirect, with the test playing the browser.
    func logIn(_ peer: GlewlwydPeer, _ cli: CLIRunner) async throws -> Subprocess.Result {
        let registered = try #require(peer.client(alg: "RS256"))
        // Held for this login alone: other suites running meanwhile bind ports of this set too.
        return try await FixedPorts.withOne(of: registered.redirectURIs.compactMap(\.port)) { port in
            try await cli.logIn(
                issuer: peer.issuer.absoluteString, clientID: registered.clientID, port: UInt16(port),
                scope: "openid email profile", browser: GlewlwydBrowser(peer: peer))
        }
    }

    @Test("login through the browser redirect, then token, exec-credential, whoami and logout --revoke")
    func browserLoginLifecycle() async throws {
        try await withPeer { peer, cli in
            let login = try await logIn(peer, cli)
            #expect(login.status == 0, "\(login.standardError)")
            let subject = login.trimmedOutput
            #expect(!subject.isEmpty)

            let token = try await cli.complete(["token"])
            #expect(token.status == 0, "\(token.standardError)")
            let accessToken = token.trimmedOutput
            let jwt = try UnverifiedJWT(accessToken)
            #expect(jwt.claims["sub"] == .string(subject))

            let credential = try await cli.complete(["token", "--exec-credential"])
            #expect(credential.status == 0, "\(credential.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: credential.standardOutput) as? [String: Any])
            #expect(object["apiVersion"] as? String == "client.authentication.k8s.io/v1")
            #expect(object["kind"] as? String == "ExecCredential")
            let status = try #require(object["status"] as? [String: Any])
            #expect(status["token"] as? String == accessToken)
            let expiry = try #require(status["expirationTimestamp"] as? String)
            #expect(ISO8601DateFormatter().date(from: expiry).map { $0 > Date() } == true)

            let whoami = try await cli.complete(["whoami"])
            #expect(whoami.status == 0, "\(whoami.standardError)")
            let claims = try #require(try JSONSerialization.jsonObject(with: whoami.standardOutput) as? [String: Any])
            #expect(claims["email"] as? String == peer.user.email)
            #expect(claims["sub"] as? String == subject)

            let logout = try await cli.complete(["logout", "--revoke"])
            #expect(logout.status == 0, "\(logout.standardError)")
            #expect(logout.trimmedOutput.split(separator: "\n").first == "signed out")
            // glewlwyd refuses revocation by a public client (401): the session still ends locally.
            #expect(logout.errorLines.contains { $0.hasPrefix("warning: revocation failed: ") })

            let after = try await cli.complete(["token"])
            #expect(after.status != 0)
            #expect(after.outputText.isEmpty)
            #expect(after.errorLines.first?.hasPrefix("error: ") == true)
        }
    }

    @Test("login --device signs in once the user approves the code shown on standard error")
    func deviceLogin() async throws {
        try await withPeer { peer, cli in
            let registered = try #require(peer.client(alg: "ES256"))
            let login = try await cli.withLaunched([
                "login", "--issuer", peer.issuer.absoluteString, "--client-id", registered.clientID, "--device",
                "--scope", "openid email profile",
            ]) { running in
                let line = try await running.firstLine { $0.hasPrefix("Visit ") }
                let userCode = try #require(line.components(separatedBy: " enter code ").last)
                #expect(!userCode.isEmpty && !userCode.contains(" "))
                try await GlewlwydBrowser(peer: peer).approveDevice(userCode: userCode)
                return try await running.wait()
            }
            #expect(login.status == 0, "\(login.standardError)")
            #expect(!login.trimmedOutput.isEmpty)

            let token = try await cli.complete(["token"])
            #expect(token.status == 0, "\(token.standardError)")
            #expect(try UnverifiedJWT(token.trimmedOutput).claims["sub"] == .string(login.trimmedOutput))
        }
    }
}
