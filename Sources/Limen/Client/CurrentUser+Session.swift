import Foundation
import LimenOIDC

/// The signed-in user's session, PingDavinci's `daVinci.user()`: the access token (``token(minimumTimeToLive:)``),
/// the OpenID Connect UserInfo (``userinfo(cache:)``), revocation (``revoke()``) and sign-out (``logout()``).
///
/// ```swift
/// let token = try await client.user.token()  // user.token()
/// let info = try await client.user.userinfo(cache: true)  // user.userinfo(cache: true)
/// try await client.user.logout()  // user.logout()
/// ```
///
/// Each call is a thin layer over the client's own (``AuthClient/validAccessToken(minimumTimeToLive:)``,
/// ``AuthClient/userInfo()``, ``AuthClient/signOut(revoke:)``) that throws ``LimenError/notSignedIn`` when nobody is
/// signed in, where PingDavinci's `user()` would have been `nil`.
extension CurrentUser {
    /// A valid access token, refreshed first when it is about to expire (one refresh, shared by concurrent callers).
    ///
    /// - Parameter minimumTimeToLive: Seconds the token must still be valid for; at least the configuration's leeway.
    /// - Throws: ``LimenError/notSignedIn`` when nobody is signed in, or the provider refused the refresh token (the
    ///   session then ended with ``AuthEvent/sessionExpired``); a retryable ``LimenError`` on a transient failure.
    public func token(minimumTimeToLive: TimeInterval? = nil) async throws(LimenError) -> String {
        guard let token = try await client.validAccessToken(minimumTimeToLive: minimumTimeToLive) else {
            throw .notSignedIn
        }
        return token
    }

    /// The user's claims from the provider's UserInfo endpoint.
    ///
    /// With `cache: true`, the copy this session last fetched is returned without a request when there is one. The copy
    /// is kept in memory only, and forgotten when the session ends (sign-out, expiry, another sign-in).
    ///
    /// ```swift
    /// let info = try await client.user.userinfo(cache: true)
    /// print(info.email ?? info.subject)
    /// ```
    /// - Throws: ``LimenError/notSignedIn`` when nobody is signed in; as ``AuthClient/userInfo()`` otherwise.
    public func userinfo(cache: Bool = false) async throws(LimenError) -> UserInfo {
        if cache, let remembered = await client.rememberedUserInfo() { return remembered }
        return try await client.userInfo()
    }

    /// Revokes the refresh and access tokens at the provider (RFC 7009) and signs out on this device.
    ///
    /// The local session ends whatever the provider answers; a provider without a revocation endpoint has nothing to
    /// revoke.
    /// - Throws: ``LimenError/notSignedIn`` when nobody is signed in; the revocation's error when the provider could not
    ///   be told (the user is signed out here regardless).
    public func revoke() async throws(LimenError) {
        let result = try await signOutRevoking()
        if let error = result.revocationError { throw error }
    }

    /// Signs out as ``AuthClient/signOut(revoke:)`` does: the local session ends, the tokens are revoked, and the
    /// result carries the provider's end-session URL (RP-initiated logout) to open when it has one.
    ///
    /// ```swift
    /// let result = try await client.user.logout()
    /// if let url = result.endSessionURL { print("open \(url) to end the provider's session too") }
    /// ```
    /// - Throws: ``LimenError/notSignedIn`` when nobody is signed in.
    @discardableResult
    public func logout() async throws(LimenError) -> SignOutResult {
        try await signOutRevoking()
    }

    /// Signs the current user out, or throws ``LimenError/notSignedIn`` when there is none.
    private func signOutRevoking() async throws(LimenError) -> SignOutResult {
        guard let result = await client.signOutSession(revoke: true) else { throw .notSignedIn }
        return result
    }
}
