import Foundation
import LimenOIDC

/// A convenience façade over one shared ``AuthClient`` (Rownd-style static calls).
///
/// Apps that need several clients, or dependency injection, use ``AuthClient`` directly; nothing here is required.
///
/// ```swift
/// Limen.configure(Configuration(issuer: issuer, clientID: "ios-app", redirectURI: callback))
/// let token = try await Limen.validAccessToken()
/// ```
public enum Limen {
    private static let sharedClient = LockedValue<AuthClient?>(nil)

    /// Creates the shared client (replacing any earlier one) and starts restoring its stored session.
    @discardableResult
    public static func configure(_ configuration: Configuration) -> AuthClient {
        let client = AuthClient(configuration: configuration)
        sharedClient.withLock { $0 = client }
        Task { await client.restore() }
        return client
    }

    /// The shared client, or `nil` before ``configure(_:)``.
    public static var shared: AuthClient? { sharedClient.withLock { $0 } }

    /// The shared client's state snapshot (signed out before ``configure(_:)``).
    public static var state: AuthState { shared?.state ?? AuthState(phase: .signedOut) }

    /// ``AuthClient/validAccessToken(minimumTimeToLive:)`` on the shared client.
    public static func validAccessToken() async throws(LimenError) -> String? {
        try await client().validAccessToken()
    }

    /// Rownd's `getAccessToken(oldToken)`: trades another issuer's token for a session of the shared client
    /// (``AuthClient/exchange(externalToken:type:scopes:)``) and returns its access token.
    ///
    /// ```swift
    /// if let accessToken = try await Limen.getAccessToken(previousProviderIDToken) { … }
    /// ```
    ///
    /// - Returns: The new session's access token, or `nil` when the provider would not exchange the token.
    /// - Throws: ``LimenError`` for anything else (retryable ones included), with the session as it was.
    public static func getAccessToken(
        _ oldToken: String,
        type: ExternalTokenType = .idToken
    ) async throws(LimenError) -> String? {
        let client = try client()
        guard try await client.exchange(externalToken: oldToken, type: type) != nil else { return nil }
        return try await client.validAccessToken()
    }

    /// ``AuthClient/signIn(using:redirectURI:options:)`` on the shared client.
    @discardableResult
    public static func requestSignIn(
        using userAgent: some UserAgent,
        redirectURI: URL? = nil,
        options: SignInOptions = SignInOptions()
    ) async throws(LimenError) -> AuthState.User {
        try await client().signIn(using: userAgent, redirectURI: redirectURI, options: options)
    }

    /// ``AuthClient/user`` of the shared client (Rownd's `Rownd.user`): profile, field encryption and key transfer.
    ///
    /// ```swift
    /// let field = try await Limen.user.encrypt(plaintext: "4111 1111 1111 1111")
    /// ```
    public static var user: CurrentUser {
        get throws(LimenError) { try client().user }
    }

    /// ``AuthClient/resume()`` on the shared client (nothing to do before ``configure(_:)``): call it when the app
    /// becomes active, so that storage a locked Keychain refused is retried.
    @discardableResult
    public static func resume() async -> LimenError? {
        await shared?.resume()
    }

    /// ``AuthClient/signOut(revoke:)`` on the shared client.
    @discardableResult
    public static func signOut() async throws(LimenError) -> SignOutResult {
        try await client().signOut()
    }

    private static func client() throws(LimenError) -> AuthClient {
        guard let client = shared else { throw .configuration(.missingKey("Limen.configure")) }
        return client
    }
}
