// snippet: using-the-sdk
import Foundation
import Limen
import LimenLoopback

// snippet.hide
/// The README's "Using the SDK", compiled with the tests and never run (it would talk to id.example.com).
func usingTheSDK() async throws {
    // snippet.show
    // The session is kept in the platform's secure store: the Keychain in an Apple app, else an encrypted file.
    let client = AuthClient(
        configuration: Configuration(
            issuer: URL(string: "https://id.example.com")!,
            clientID: "my-app",
            redirectURI: URL(string: "com.example.app:/callback")!,
            scopes: ["profile", "email", "offline_access"]
        )
    )
    // .restoring → .signedIn or .signedOut (stays .restoring while the Keychain is locked; resume() retries).
    await client.restore()

    // A desktop or command-line app signs in through the browser and a loopback listener (LimenLoopback);
    // an iOS or macOS app uses LimenApple's web authentication session instead.
    let agent = try await LoopbackUserAgent.start()
    try await client.signIn(
        using: agent,
        redirectURI: agent.redirectURI,
        options: SignInOptions(loginHint: "ada@example.com")
    )

    // The current value, then each change (SwiftUI views can observe an AuthStateModel instead).
    Task {
        for await auth in client.subscribe({ $0.auth }) {
            print(auth.isAuthenticated ? "signed in" : "signed out")
        }
    }

    // The cached access token, or one refresh shared by all callers; nil when signed out.
    let token = try await client.validAccessToken()
    print(token == nil ? "signed out" : "signed in, with a fresh access token")

    // A bearer request, retried once with a refreshed token on invalid_token.
    let api = URL(string: "https://api.example.com/me")!
    let response = try await client.authorizedRequest(HTTPRequest(url: api))
    print(response.status)

    // Forgets the session locally first, then revokes the refresh token; may return an end-session URL.
    let signOut = await client.signOut()
    if let endSession = signOut.endSessionURL { print("open \(endSession) to end the provider's session") }
    // snippet.hide
}
// end snippet
