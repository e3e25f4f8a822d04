import Foundation
import Limen

/// The AppleSignInKit migration article's example, compiled with the tests.
func migratingFromAppleSignInKit(
    client: AuthClient,
    askApple: (_ hashedNonce: String) async throws -> AppleIDCredential,
    appleStates: some AppleCredentialStateSource
) async throws {
    // snippet: applesigninkit-sign-in
    // AppleSignInKit.shared.signIn(): LimenApple's client.signInWithApple(allowMigration:presentationAnchor:) does all this
    let nonce = AppleSignInNonce()
    let credential = try await askApple(nonce.sha256)  // an ASAuthorizationAppleIDRequest with this nonce
    let descriptor = try await client.signInWithApple(credential, nonce: nonce, allowMigration: nil)
    print("signed in as \(descriptor.userID)")

    // AppleSignInKit.shared.checkCredentialState(), at launch: signed out when Apple says revoked
    let isSignedIn = try await client.checkCredentialState(using: appleStates)
    // end snippet
    _ = isSignedIn
}
