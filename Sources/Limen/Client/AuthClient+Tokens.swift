import Foundation

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
        return try await refresher.refresh(self, margin: margin)
    }

    /// Refreshes now, whatever the token's age; returns the new access token or `nil` if the session ended.
    @discardableResult
    public func refresh() async throws(LimenError) -> String? {
        try await ensureRestored()
        return try await refresher.refresh(self, margin: .infinity)
    }
}

extension AuthClient: RefreshableSession {
    /// Makes a set another client saved the session in memory (see ``RefreshableSession/adoptStored(_:)``).
    func adoptStored(_ stored: TokenSet) {
        tokens = stored
        stateStore.update { $0 = .signedIn(stored, after: $0) }
    }
}
