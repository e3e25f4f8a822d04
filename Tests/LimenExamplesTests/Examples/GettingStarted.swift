// snippet: getting-started-configure
import Foundation
import Limen

// snippet.hide
/// The getting-started article's first example: make a client, read the stored session.
func gettingStartedConfigure() async -> AuthClient {
    // snippet.show
    let client = AuthClient(
        configuration: Configuration(
            issuer: URL(string: "https://id.example.com")!,
            clientID: "my-app",
            redirectURI: URL(string: "com.example.app:/callback")!,
            scopes: ["profile", "email", "offline_access"]
        )
    )
    await client.restore()
    // snippet.hide
    return client
}
// end snippet

/// The getting-started article's second example: choose what to show from the phase.
func gettingStartedPhase(client: AuthClient) {
    // snippet: getting-started-phase
    switch client.state.phase {
    case .restoring, .signingIn:
        print("show a progress view")
    case .signedIn:
        print("signed in as \(client.state.user.email ?? "someone")")
    case .signedOut, .expired:
        print("show the sign-in button")
    }
    // end snippet
}

/// The getting-started article's third example: call an API with a fresh token.
func gettingStartedRequest(client: AuthClient) async throws {
    // snippet: getting-started-request
    let profile = URL(string: "https://api.example.com/me")!
    let response = try await client.authorizedRequest(HTTPRequest(url: profile))
    if response.isSuccess { print(String(decoding: response.body, as: UTF8.self)) }
    // end snippet
}
