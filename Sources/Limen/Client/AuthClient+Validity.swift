import Foundation

extension AuthClient {
    /// The session's ID token and its claims (GrabID's `getIdTokenInfo`), read from the stored session without the
    /// network; `nil` when nobody is signed in or the provider sent no ID token. The token was validated when it
    /// arrived; ``isValidIdToken(_:)`` says whether it still holds.
    public func idTokenInfo() async -> IDTokenInfo? {
        guard let token = await currentTokens()?.idToken else { return nil }
        return IDTokenInfo(token: token)
    }

    /// Whether `info` still holds now (GrabID's `isValidIdToken(idTokenInfo:)`): not expired, already in force, and
    /// issued by this client's provider for this client, give or take the configuration's leeway.
    public nonisolated func isValidIdToken(_ info: IDTokenInfo) -> Bool {
        info.isValid(
            at: configuration.now(), issuer: configuration.issuer.absoluteString, clientID: configuration.clientID,
            leeway: configuration.leeway)
    }

    /// Whether the session's access token has not expired by the lifetime the provider gave it (GrabID's
    /// `isValidAccessToken(loginSession:)`); `false` when nobody is signed in. It asks no one: a token the provider
    /// revoked early still counts. To call an API, use ``validAccessToken(minimumTimeToLive:)``, which refreshes a
    /// token about to expire.
    public func isValidAccessToken() async -> Bool {
        await currentTokens()?.hasFreshAccessToken(at: configuration.now(), leeway: 0) ?? false
    }
}
