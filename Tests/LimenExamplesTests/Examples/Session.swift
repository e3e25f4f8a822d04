import Foundation
import Limen

/// The session article's token example.
func sessionTokens(client: AuthClient) async {
    // snippet: session-token
    do throws(LimenError) {
        if let token = try await client.validAccessToken() {
            print("send it as Bearer, \(token.count) characters")
        } else {
            print("nobody is signed in")
        }
    } catch {
        print(error.requiresReauthentication ? "the session ended: sign in again" : "try again later: \(error.code)")
    }
    // end snippet
}

/// The session article's state and events example.
func sessionObserving(client: AuthClient) async {
    // snippet: session-observe
    let signedIn = Task {
        for await isAuthenticated in client.subscribe({ $0.auth.isAuthenticated }) {
            print(isAuthenticated ? "show the app" : "show the sign-in button")
        }
    }
    client.addEventHandler { event in
        if event == .sessionExpired { print("the provider ended the session") }
    }
    // snippet.hide
    signedIn.cancel()
    // end snippet
}

/// The session article's resume and sign-out example.
func sessionEnding(client: AuthClient) async {
    // snippet: session-resume
    // When the app becomes active again (the Keychain may have been locked at launch):
    await client.resume()

    // Forgets the session here first, then revokes it at the provider.
    let result = await client.signOut()
    if let error = result.revocationError { print("revocation failed: \(error.code)") }
    // end snippet
}
