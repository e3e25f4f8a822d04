import Foundation
import LimenOIDC

extension AuthClient {
    /// Trades a token another issuer gave the app (an ID token of Sign in with Apple, Google, the app's previous auth
    /// provider) for a session with this provider (RFC 8693 token exchange), then holds that session as after any
    /// sign-in: state, events (``SignInMethod/tokenExchange``) and storage.
    ///
    /// The provider must trust the token's issuer (Limen Server: `trusted_issuers`) and allow this client the token
    /// exchange grant. The token is sent once, never stored nor logged.
    ///
    /// ```swift
    /// if let user = try await client.exchange(externalToken: appleIDToken) {
    ///     print("signed in as", user.id ?? "-")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - externalToken: The other issuer's token.
    ///   - type: What it is; an ID token by default.
    ///   - scopes: Scopes to ask for besides `openid` (always sent); `nil` uses the configuration's.
    /// - Returns: The signed-in user, or `nil` when the provider would not exchange the token (`invalid_grant`: an
    ///   issuer it does not trust, an expired or forged token); then the state is as it was before.
    /// - Throws: ``LimenError`` for anything else — retryable ones (offline, 5xx) included — with the state as before.
    @discardableResult
    public func exchange(
        externalToken: String,
        type: ExternalTokenType = .idToken,
        scopes: [String]? = nil
    ) async throws(LimenError) -> AuthState.User? {
        do {
            return try await performSignIn(method: .tokenExchange) { () async throws(LimenError) -> TokenSet in
                let tokens = try await tokenClient()
                let requested = scopes ?? configuration.scopes
                let request = TokenExchangeRequest(
                    subjectToken: externalToken, subjectTokenType: type.rawValue,
                    scopes: ["openid"] + requested.filter { $0 != "openid" })
                let response = try await LimenError.mapping { () async throws(OIDCError) in
                    try await tokens.exchange(request)
                }
                return try await tokenSet(from: response, nonce: nil, maxAge: nil)
            }
        } catch .oauth(let refusal) where refusal.error == .invalidGrant {
            return nil
        }
    }
}
