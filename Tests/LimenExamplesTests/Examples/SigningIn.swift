import Foundation
import Limen
import LimenLoopback

/// The signing-in article's loopback example.
func signingInWithTheBrowser(client: AuthClient) async throws {
    // snippet: signing-in-loopback
    let agent = try await LoopbackUserAgent.start()
    do throws(LimenError) {
        let user = try await client.signIn(using: agent, redirectURI: agent.redirectURI)
        print("signed in as \(user.email ?? user.id ?? "someone")")
    } catch .userCancelled {
        print("the sign-in was cancelled")
    } catch {
        print("sign-in failed: \(error.code)")
    }
    // end snippet
}

/// The signing-in article's options example.
func signingInWithOptions(client: AuthClient, agent: some UserAgent) async throws {
    // snippet: signing-in-options
    let options = SignInOptions(loginHint: "ada@example.com", prompt: ["login"], maxAge: 300)
    try await client.signIn(using: agent, options: options)
    // end snippet
}

/// The signing-in article's device-grant example.
func signingInOnADevice(client: AuthClient) async throws {
    // snippet: signing-in-device
    try await client.signInWithDeviceCode { authorization in
        print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
    }
    // end snippet
}
