/// The signed-in user's side of a client, Rownd's `Rownd.user` and PingDavinci's `daVinci.user()`: their session
/// (``token(minimumTimeToLive:)``, ``userinfo(cache:)``, ``revoke()``, ``logout()``), their profile on Limen Server
/// (``get()``, ``set(field:value:)``), on-device field encryption, and the key's transfer to another device. Reach it
/// as ``AuthClient/user``.
///
/// ```swift
/// let field = try await client.user.encrypt(plaintext: "4111 1111 1111 1111")
/// let card = try await client.user.decrypt(ciphertext: field)
/// ```
///
/// A small value over its client: each call acts on whoever is signed in when it runs, and throws
/// ``LimenError/notSignedIn`` when nobody is.
public struct CurrentUser: Sendable {
    /// The client whose signed-in user this is.
    public let client: AuthClient
}

extension AuthClient {
    /// The signed-in user's calls: session, profile, field encryption and key transfer (see ``CurrentUser``).
    public nonisolated var user: CurrentUser { CurrentUser(client: self) }
}
