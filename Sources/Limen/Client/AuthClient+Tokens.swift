import Foundation
import LimenOIDC
import Logging

extension AuthClient {
    /// A valid access token, refreshed if needed (Rownd's `getAccessToken` contract).
    ///
    /// - Returns the cached token while it has more than the leeway (or `minimumTimeToLive`) left.
    /// - Otherwise one refresh runs, shared by every concurrent caller; across processes sharing one
    ///   ``EncryptedFileStore`` or `KeychainStore`, a lock file makes the others wait and re-read instead of
    ///   refreshing again.
    /// - Returns `nil` when nobody is signed in, or when the provider refuses the refresh token (`invalid_grant`):
    ///   then the session is cleared and ``AuthEvent/sessionExpired`` is emitted.
    /// - Throws a retryable ``LimenError`` on a transient failure (offline, timeout, 5xx, 429, or a store that cannot
    ///   be read yet, as the Keychain while the device is locked); the session is kept.
    /// - A refreshed set the store refuses to save stays in memory and is saved again on the next call.
    public nonisolated func validAccessToken(minimumTimeToLive: TimeInterval? = nil)
        async throws(LimenError)
        -> String?
    {
        let margin = max(minimumTimeToLive ?? 0, configuration.leeway)
        if let cached = freshToken.withLock({ $0 }), cached.isFresh(at: configuration.now(), margin: margin) {
            return cached.accessToken
        }
        return try await accessTokenRefreshingIfNeeded(margin: margin)
    }

    /// The slow path of ``validAccessToken(minimumTimeToLive:)``: restore, re-check, then one shared refresh.
    private func accessTokenRefreshingIfNeeded(margin: TimeInterval) async throws(LimenError) -> String? {
        try await ensureRestored()
        await saveUnsavedSession()
        guard let current = tokens else { return nil }
        if current.hasFreshAccessToken(at: configuration.now(), leeway: margin) { return current.accessToken }
        return try await sharedRefresh(margin: margin)
    }

    /// Refreshes now, whatever the token's age; returns the new access token or `nil` if the session ended.
    @discardableResult
    public func refresh() async throws(LimenError) -> String? {
        try await ensureRestored()
        return try await sharedRefresh(margin: .infinity)
    }

    /// Joins the refresh under way, or starts one.
    private func sharedRefresh(margin: TimeInterval) async throws(LimenError) -> String? {
        try await refreshes.run { () async throws(LimenError) in try await self.refreshSession(margin: margin) }
    }

    /// One refresh, under the store's cross-process lock when it has one.
    private func refreshSession(margin: TimeInterval) async throws(LimenError) -> String? {
        let startedIn = generation
        return try await sessions.exclusively { () async throws(LimenError) in
            try await self.refreshHoldingLock(margin: margin, startedIn: startedIn)
        }
    }

    private func refreshHoldingLock(margin: TimeInterval, startedIn: Int) async throws(LimenError) -> String? {
        // A set the store has not accepted yet holds the only refresh token the provider still honours: it wins.
        await writeUnsavedSession()
        // Otherwise another process may have refreshed while this one waited for the lock: adopt its result.
        let stored: TokenSet?
        if hasUnsavedSession {
            stored = tokens
        } else {
            do {
                stored = try await sessions.load()
            } catch {
                throw .storage(error)
            }
        }
        guard generation == startedIn else { return tokens?.accessToken }
        guard let stored else {
            await endSession(phase: tokens == nil ? .signedOut : .expired)
            return nil
        }
        if stored != tokens,
            stored.hasFreshAccessToken(at: configuration.now(), leeway: min(margin, configuration.leeway))
        {
            tokens = stored
            stateStore.update { $0 = .signedIn(stored, after: $0) }
            return stored.accessToken
        }
        guard let refreshToken = stored.refreshToken else {
            await expire()
            return nil
        }
        let client = try await tokenClient()
        let response: TokenResponse
        do {
            response = try await client.refresh(refreshToken)
        } catch .oauth(let error) where error.requiresReauthentication {
            await expire()
            return nil
        } catch .network(.httpStatus(let status)) where status == 400 || status == 401 {
            // A refusal without an OAuth body (some providers send an empty 400 for a revoked token).
            await expire()
            return nil
        } catch {
            throw LimenError(error)
        }
        let newClaims = try await refreshedClaims(response, previous: stored)
        guard generation == startedIn else {
            logger.info("refresh finished after the session changed; result discarded")
            return nil
        }
        let next = stored.refreshed(with: response, receivedAt: configuration.now(), claims: newClaims)
        await adoptRefreshed(next)
        logger.debug(
            "access token refreshed",
            metadata: [
                "access_token": "\(Redaction.fingerprint(next.accessToken))",
                "refresh_token_rotated": "\(next.refreshToken != stored.refreshToken)",
            ]
        )
        events.emit(.tokenRefreshed)
        return next.accessToken
    }

    /// Validates an ID token returned by a refresh (OpenID Connect Core §12.2: same `iss`, `sub`, `aud`).
    private func refreshedClaims(_ response: TokenResponse, previous: TokenSet) async throws(LimenError)
        -> [String: JSONValue]?
    {
        guard let idToken = response.idToken else { return nil }
        let claims = try await validateIDToken(idToken, nonce: nil, maxAge: nil, accessToken: response.accessToken)
        guard claims.subject == previous.subject else {
            throw .protocolViolation(
                .invalidResponse(endpoint: "token", reason: "the refreshed ID token names another subject"))
        }
        return claims.all
    }

    /// Ends a session the provider no longer honours.
    private func expire() async {
        logger.info("refresh token refused; session expired")
        await endSession(phase: .expired)
        events.emit(.sessionExpired)
    }
}
