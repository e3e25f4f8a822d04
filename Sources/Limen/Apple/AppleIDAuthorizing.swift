/// Asks Apple for a Sign in with Apple credential: on Apple platforms `LimenApple`'s `AppleIDAuthorizationSheet`
/// (Apple's sheet over a window), anywhere a stand-in (tests, previews).
///
/// ```swift
/// var configuration = Configuration(issuer: issuer, clientID: "ios-app", redirectURI: redirect)
/// configuration.appleAuthorization = AppleIDAuthorizationSheet { window }  // LimenApple
/// let descriptor = try await AuthClient(configuration: configuration).signInWithApple(allowMigration: nil)
/// ```
public protocol AppleIDAuthorizing: Sendable {
    /// Apple's credential for a request whose `nonce` is `hashedNonce` (``AppleSignInNonce/sha256``), asking for the
    /// person's name and email address.
    /// - Throws: ``UserAgentError/cancelled`` when the person closes the sheet, ``UserAgentError/presentationFailed(_:)``
    ///   when it cannot be shown or Apple refuses.
    func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential
}
