/// How much a provider knows about the signed-in user (Rownd's guest / unverified / verified), carried by Limen Server
/// as the `auth_level` claim of its ID tokens, access tokens and userinfo answers. It rises on the next refresh when an
/// anonymous user links a credential or proves their address, without a new sign-in.
///
/// ```swift
/// if client.state.auth.level == .guest { showSaveYourProgressBanner() }
/// ```
public enum AuthLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Signed in anonymously: no identity (no email, password or external account) is linked yet.
    case guest
    /// Signed in with an identity whose email address has not been proved.
    case unverified
    /// Signed in with an identity whose email address has been proved.
    case verified

    /// The claim's name: `auth_level`.
    public static let claimName = "auth_level"
}
