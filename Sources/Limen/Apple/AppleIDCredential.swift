/// What Sign in with Apple gave the app (the fields of `ASAuthorizationAppleIDCredential` Limen uses), in a form
/// that exists on every platform: the `LimenApple` adapter builds it on Apple's, a test anywhere.
///
/// Apple sends the email address and the name only the first time a person signs in to the app; the server keeps
/// them then.
public struct AppleIDCredential: Sendable, Equatable {
    /// Apple's stable identifier of the person for this team (`user`): what ``AuthClient/checkCredentialState(using:)``
    /// asks Apple about.
    public var user: String
    /// The identity token (a JWT signed by Apple) whose `nonce` claim is the SHA-256 of the request's nonce.
    public var identityToken: String
    /// The one-time authorization code, when Apple gave one.
    public var authorizationCode: String?
    /// The address the person shared (perhaps a private relay address), first sign-in only.
    public var email: String?
    /// The person's name as they want to be called, first sign-in only.
    public var fullName: String?

    /// A credential from its parts.
    public init(
        user: String,
        identityToken: String,
        authorizationCode: String? = nil,
        email: String? = nil,
        fullName: String? = nil
    ) {
        self.user = user
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.email = email
        self.fullName = fullName
    }
}

extension AppleIDCredential: CustomStringConvertible, CustomDebugStringConvertible {
    /// The user identifier and address; the token and the code are redacted.
    public var description: String {
        "AppleIDCredential(user: \(user), email: \(email ?? "-"), identityToken: <redacted>)"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
