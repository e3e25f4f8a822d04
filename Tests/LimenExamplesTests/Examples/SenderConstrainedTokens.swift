import Foundation
import Limen

/// The DPoP article's configuration with a software key.
func senderConstrainedConfiguration() -> AuthClient {
    // snippet: dpop-configure
    var configuration = Configuration(
        issuer: URL(string: "https://id.example.com")!,
        clientID: "cli",
        redirectURI: URL(string: "http://127.0.0.1/callback")!
    )
    configuration.dpop = SoftwareDPoPKeys()
    let client = AuthClient(configuration: configuration)
    // snippet.hide
    return client
    // end snippet
}

/// The DPoP article's API call and its refusals.
func senderConstrainedRequest(client: AuthClient) async {
    // snippet: dpop-request
    do {
        let orders = HTTPRequest(url: URL(string: "https://api.example.com/v1/orders")!)
        let response = try await client.authorizedRequest(orders)
        print(response.status)
    } catch .oauth(let refusal) where refusal.error == .useDPoPNonce {
        print("the server refused the nonce it had just sent; not retried again")
    } catch .dpop(let failure) {
        print("no proof could be made: \(failure.code)")
    } catch {
        print(error.code)
    }
    // end snippet
}
