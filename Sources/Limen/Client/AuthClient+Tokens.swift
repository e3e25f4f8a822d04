import Foundation
import LimenOIDC
import Logging

extension AuthClient {
    /// A valid access token, refreshed if needed (Rownd's `getAccessToken` contract).
    ///
    /// - Returns the cached token while it has more than the leeway (or `minimumTimeToLive`) left.
    /// - Otherwise one refresh runs, shared by every concurrent caller; across processes sharing one
    ///   ``EncryptedFileStore`` or `KeychainStore`, a refresh claim recorded under their lock file (held only around
    ///   reads and writes, never across the request) makes the others wait and re-read instead of refreshing again.
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

    /// One refresh. The store's cross-process lock is held only around reading and writing the store, never across
    /// the network call: before it, this client claims the refresh (``RefreshClaim``) unless another client's result
    /// is there to adopt or its claim is to be waited for; after it, holding the lock again, the result is saved and
    /// the claim released.
    private func refreshSession(margin: TimeInterval) async throws(LimenError) -> String? {
        let startedIn = generation
        while true {
            let step = try await sessions.exclusively { () async throws(LimenError) in
                try await self.prepareRefresh(margin: margin, startedIn: startedIn)
            }
            switch step {
            case .done(let accessToken):
                return accessToken
            case .wait:
                do {
                    try await configuration.clock.sleep(for: RefreshClaim.pollInterval)
                } catch {
                    throw .storage(.lockFailed(path: sessions.claimKey, errno: EINTR))
                }
            case .refresh(let stored, let refreshToken):
                return try await refreshOutsideLock(stored, spending: refreshToken, startedIn: startedIn)
            }
        }
    }

    /// What a refresh does next, decided holding the store's lock.
    private enum RefreshStep: Sendable {
        /// Nothing more: the access token to return (`nil` when the session ended).
        case done(String?)
        /// Another client is refreshing: look again shortly.
        case wait
        /// Spend `refreshToken` of the stored set; this client now holds the claim.
        case refresh(TokenSet, refreshToken: String)
    }

    private func prepareRefresh(margin: TimeInterval, startedIn: Int) async throws(LimenError) -> RefreshStep {
        // A set the store has not accepted yet holds the only refresh token the provider still honours: it wins.
        await writeUnsavedSession()
        // Otherwise another process may have refreshed meanwhile: adopt its result.
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
        guard generation == startedIn else { return .done(tokens?.accessToken) }
        guard let stored else {
            await endSession(phase: tokens == nil ? .signedOut : .expired)
            return .done(nil)
        }
        if stored != tokens,
            stored.hasFreshAccessToken(at: configuration.now(), leeway: min(margin, configuration.leeway))
        {
            tokens = stored
            stateStore.update { $0 = .signedIn(stored, after: $0) }
            return .done(stored.accessToken)
        }
        guard let refreshToken = stored.refreshToken else {
            await expire()
            return .done(nil)
        }
        let now = configuration.now()
        if let claim = await sessions.claim(), claim.blocks(instanceID, at: now) { return .wait }
        let claim = RefreshClaim(owner: instanceID, expiresAt: now.addingTimeInterval(RefreshClaim.lifetime))
        if !(await sessions.record(claim)) {
            logger.notice("refresh claim not recorded; refreshing unannounced")
        }
        return .refresh(stored, refreshToken: refreshToken)
    }

    /// Spends `refreshToken` at the token endpoint, then, holding the lock again, saves the result and releases the
    /// claim.
    private func refreshOutsideLock(_ stored: TokenSet, spending refreshToken: String, startedIn: Int)
        async throws(LimenError) -> String?
    {
        let outcome: Result<(TokenResponse, [String: JSONValue]?)?, LimenError>
        do {
            outcome = .success(try await requestRefresh(refreshToken, previous: stored))
        } catch {
            outcome = .failure(error)
        }
        do {
            return try await sessions.exclusively { () async throws(LimenError) in
                await self.sessions.releaseClaim()
                guard let refreshed = try outcome.get() else {
                    await self.expire()
                    return nil
                }
                return await self.finishRefresh(
                    stored, response: refreshed.0, claims: refreshed.1, startedIn: startedIn)
            }
        } catch {
            // The lock could not be taken again, but the provider has spent the old refresh token: keep the new set
            // (unsaved, as when the store refuses it; the claim lapses), rather than lose the session.
            guard case .success(let refreshed?) = outcome else { throw error }
            return await finishRefresh(stored, response: refreshed.0, claims: refreshed.1, startedIn: startedIn)
        }
    }

    /// The token endpoint's answer and the refreshed ID token's claims; `nil` when the provider refused the refresh
    /// token (the session is over).
    private func requestRefresh(_ refreshToken: String, previous: TokenSet) async throws(LimenError)
        -> (TokenResponse, [String: JSONValue]?)?
    {
        let client = try await tokenClient()
        let response: TokenResponse
        do {
            response = try await client.refresh(refreshToken)
        } catch .oauth(let error) where error.requiresReauthentication {
            return nil
        } catch .network(.httpStatus(let status)) where status == 400 || status == 401 {
            // A refusal without an OAuth body (some providers send an empty 400 for a revoked token).
            return nil
        } catch {
            throw LimenError(error)
        }
        return (response, try await refreshedClaims(response, previous: previous))
    }

    /// Adopts a refreshed set, unless the session changed meanwhile in this process (sign-in, sign-out).
    private func finishRefresh(
        _ stored: TokenSet, response: TokenResponse, claims newClaims: [String: JSONValue]?, startedIn: Int
    ) async -> String? {
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
