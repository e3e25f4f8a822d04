import Foundation
import Limen

/// The extensions article's example of an extension starting work.
func sharingInExtension(client: AuthClient) async {
    // snippet: sharing-extension-resume
    // In a widget's timeline provider, or a share extension's viewDidLoad:
    await client.resume()  // retries a read the locked Keychain refused
    let token = try? await client.validAccessToken()
    // snippet.hide
    _ = token
    // end snippet
}
