import Foundation
import Limen
import LimenOIDC

/// Plays the browser against ``GlewlwydPeer``: signs the user in through glewlwyd's login API with a cookie, then
/// follows the authorization URL by hand and hands back the redirect — what a person would do in the page.
public struct GlewlwydBrowser: UserAgent {
    let peer: GlewlwydPeer
    let transport = URLSessionTransport()

    /// A browser for the peer's test user.
    public init(peer: GlewlwydPeer) {
        self.peer = peer
    }

    /// Signs in, opens `url` (with glewlwyd's `g_continue`) and returns the redirect to the callback.
    public func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        do {
            let cookie = try await signInCookie()
            let response = try await transport.send(
                HTTPRequest(url: URL(string: url.absoluteString + "&g_continue")!, headers: ["Cookie": cookie])
            )
            guard response.status == 302, let location = response.header("Location").flatMap(URL.init(string:)),
                callback.matches(location)
            else { throw UserAgentError.presentationFailed("no redirect to the callback (\(response.status))") }
            return location
        } catch let error as UserAgentError {
            throw error
        } catch {
            throw .presentationFailed(String(describing: error))
        }
    }

    /// Approves a device authorization as the user would on the verification page.
    public func approveDevice(userCode: String) async throws {
        let cookie = try await signInCookie()
        var components = URLComponents(
            url: peer.issuer.appendingPathComponent("device"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = "code=\(FormEncoding.escape(userCode))&g_continue"
        let response = try await transport.send(HTTPRequest(url: components.url!, headers: ["Cookie": cookie]))
        guard response.status == 302, response.header("Location")?.contains("deviceComplete") == true else {
            throw UserAgentError.presentationFailed("device approval answered \(response.status)")
        }
    }

    /// Logs the user in through the login API and returns the session cookie.
    private func signInCookie() async throws -> String {
        let body = try JSONEncoder().encode(["username": peer.user.username, "password": peer.user.password])
        let response = try await transport.send(
            HTTPRequest(
                method: "POST",
                url: peer.baseURL.appendingPathComponent("api/auth/"),
                headers: ["Content-Type": "application/json"],
                body: body
            )
        )
        guard response.status == 200, let setCookie = response.header("Set-Cookie"),
            let cookie = setCookie.split(separator: ";").first
        else { throw UserAgentError.presentationFailed("login API answered \(response.status)") }
        return String(cookie)
    }
}
