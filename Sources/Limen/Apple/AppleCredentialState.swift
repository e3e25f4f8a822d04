/// What Apple says of a person's Sign in with Apple credential for this app (`ASAuthorizationAppleIDProvider`'s
/// credential states).
public enum AppleCredentialState: String, Sendable, Equatable {
    /// The credential is valid.
    case authorized
    /// The person stopped using Sign in with Apple with this app (Settings → Apple ID → Sign in with Apple).
    case revoked
    /// Apple does not know this person for this app.
    case notFound
    /// The app moved to another team and the person's identifier is being transferred.
    case transferred
}

/// Asks Apple about a credential: `LimenApple`'s `AppleIDProviderCredentialStates` on Apple platforms, a stand-in in
/// tests.
public protocol AppleCredentialStateSource: Sendable {
    /// The state of the credential of Apple's user identifier `user` (``AppleIDCredential/user``).
    func credentialState(forUser user: String) async throws -> AppleCredentialState
}
