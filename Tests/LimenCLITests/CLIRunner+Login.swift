import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

extension CLIRunner {
    /// Runs `limen login --no-browser` on the loopback redirect at `port`, lets `browser` play the person with the
    /// authorization URL the tool prints, delivers the callback to the tool, and returns how the tool ended.
    func logIn(
        issuer: String,
        clientID: String,
        port: UInt16,
        scope: String,
        browser: some UserAgent
    ) async throws -> Subprocess.Result {
        try await withLaunched([
            "login", "--issuer", issuer, "--client-id", clientID, "--port", String(port), "--no-browser",
            "--scope", scope,
        ]) { running in
            let line = try await running.firstLine { $0.hasPrefix(issuer) }
            let authorizationURL = try #require(URL(string: line), "no authorization URL: \(line)")
            let redirectURI = try #require(URL(string: "http://127.0.0.1:\(port)/callback"))
            let callback = try await browser.authorize(
                url: authorizationURL, callback: CallbackMatcher(redirectURI: redirectURI))
            let page = try await URLSessionTransport().send(HTTPRequest(url: callback))
            #expect(page.status == 200)
            return try await running.wait()
        }
    }
}
