import Foundation
import Limen
import LimenOIDC
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
        let running = try launch([
            "login", "--issuer", issuer, "--client-id", clientID, "--port", String(port), "--no-browser",
            "--scope", scope,
        ])
        do {
            let line = await running.firstErrorLine { $0.hasPrefix(issuer) }
            let authorizationURL = try #require(line.flatMap(URL.init(string:)), "no authorization URL: \(running)")
            let redirectURI = try #require(URL(string: "http://127.0.0.1:\(port)/callback"))
            let callback = try await browser.authorize(
                url: authorizationURL, callback: CallbackMatcher(redirectURI: redirectURI))
            let page = try await URLSessionTransport().send(HTTPRequest(url: callback))
            #expect(page.status == 200)
        } catch {
            running.terminate()
            _ = await running.wait()
            throw error
        }
        return await running.wait()
    }
}
