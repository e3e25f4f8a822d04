import Foundation
import LimenOIDC

extension AuthClient {
    /// Sends `method` to the account route `url` with the access token, and `form` as a form body; a `2xx` answer is
    /// returned, anything else thrown in the account domain (`401 invalid_token` twice: ``LimenError/sessionExpired``).
    /// A confidential client sends its secret with a change, as Limen Server's account-change rule asks.
    func accountRequest(_ method: String, _ url: URL, form: [(String, String)] = []) async throws(LimenError)
        -> HTTPResponse
    {
        let accept = ["Accept": "application/json"]
        let secret = method == "GET" ? [] : configuration.clientSecret.map { [("client_secret", $0)] } ?? []
        var request = HTTPRequest(method: method, url: url, headers: accept)
        if !(form + secret).isEmpty {
            request = .form(url: url, form + secret, headers: accept)
            request.method = method
        }
        let response = try await authorizedRequest(request)
        if (200..<300).contains(response.status) { return response }
        let challenge = BearerChallenge(response.header("WWW-Authenticate"))
        if response.status == 401, challenge?.error == "invalid_token" { throw .sessionExpired }
        throw .account(AccountError(response: response, challenge: challenge))
    }
}
