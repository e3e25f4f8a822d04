import Foundation
import LimenOIDC
import Logging

/// What happened when signing out. The local session is always gone.
public struct SignOutResult: Sendable, Equatable {
    /// Why revoking the tokens at the provider failed, if it did (the user is signed out locally regardless).
    public var revocationError: LimenError?
    /// The provider's end-session URL to open in the browser, when it has one (RP-initiated logout).
    public var endSessionURL: URL?
    /// Why the user's field-encryption key could not be deleted, when ``Configuration/encryptionKeyOnSignOut`` asked
    /// for it (the key is then still in the store; ``CurrentUser/deleteEncryptionKey()`` needs a signed-in user).
    public var encryptionKeyError: LimenError?
}

extension AuthClient {
    /// Signs out: clears the local session and the cached profile first (and the user's field-encryption key, when
    /// ``Configuration/encryptionKeyOnSignOut`` is ``EncryptionKeyRetention/delete``), then revokes the refresh and
    /// access tokens when the provider has a revocation endpoint, and builds the end-session URL.
    /// - Parameter revoke: Whether to revoke the tokens at the provider (default `true`).
    @discardableResult
    public func signOut(revoke: Bool = true) async -> SignOutResult {
        await signOutSession(revoke: revoke) ?? SignOutResult()
    }

    /// ``signOut(revoke:)``, returning `nil` when nobody was signed in (for the calls that throw
    /// ``LimenError/notSignedIn`` then, as ``CurrentUser/logout()``).
    func signOutSession(revoke: Bool) async -> SignOutResult? {
        try? await ensureRestored()
        let ended = tokens
        await endSession(phase: .signedOut)
        events.emit(.signedOut)
        guard let ended else { return nil }
        return await retire(ended, revoke: revoke)
    }

    /// Cleans up after the session `ended`, no longer this client's: the user's field-encryption key (per
    /// ``Configuration/encryptionKeyOnSignOut``), their cached profile, the end-session URL, and, when `revoke` is set,
    /// its tokens at the provider.
    func retire(_ ended: TokenSet, revoke: Bool) async -> SignOutResult {
        var result = SignOutResult()
        result.encryptionKeyError = await profiles.retireEncryptionKey(of: ended.subject)
        await profiles.forgetProfile(of: ended.subject)
        if let metadata = try? await metadata(), let endpoint = metadata.endSessionEndpoint {
            result.endSessionURL = EndSessionRequest(
                idTokenHint: ended.idToken,
                postLogoutRedirectURI: configuration.postLogoutRedirectURI,
                state: RandomToken.make(byteCount: 16),
                clientID: configuration.clientID
            ).url(endSessionEndpoint: endpoint)
        }
        if revoke {
            result.revocationError = await revokeTokens(of: ended)
        }
        return result
    }

    /// After a sign-in that replaced `previous`, another user's session on this device, with `user`: cleans up after
    /// it as sign-out does (its key per ``Configuration/encryptionKeyOnSignOut``, its cached profile, and its tokens
    /// when `revoke` is set).
    func retireReplaced(_ previous: TokenSet?, by user: AuthState.User, revoke: Bool) async {
        guard let previous, previous.subject != user.id else { return }
        _ = await retire(previous, revoke: revoke)
    }

    /// Revokes the refresh token (which ends the grant) and then the access token.
    private func revokeTokens(of tokens: TokenSet) async -> LimenError? {
        do throws(LimenError) {
            let client = try await tokenClient()
            guard client.metadata.revocationEndpoint != nil else { return nil }
            try await LimenError.mapping { () async throws(OIDCError) in
                if let refreshToken = tokens.refreshToken {
                    try await client.revoke(refreshToken, hint: .refreshToken)
                }
                try await client.revoke(tokens.accessToken, hint: .accessToken)
            }
            return nil
        } catch {
            logger.warning("token revocation failed", metadata: ["code": "\(error.code)"])
            return error
        }
    }
}
