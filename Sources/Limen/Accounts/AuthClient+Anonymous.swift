extension AuthClient {
    /// Signs in as a guest by driving Limen Server's built-in `anonymous` flow (Firebase's `signInAnonymously()`): a
    /// user with no identity, whose ``AuthState/Auth/level`` is `AuthLevel.guest`, so the app can be used before
    /// anyone signs up. Link an identity later with ``linkAnonymousAccount(toEmail:password:name:code:)`` (same user
    /// ID, data kept), or sign in to an existing account with ``login(email:password:allowMigration:)``.
    ///
    /// When a guest is signed in already, that guest is returned and nothing is sent; any other signed-in user is
    /// replaced by the new guest (their tokens revoked, as at sign-out).
    ///
    /// ```swift
    /// await client.restore()
    /// if !client.state.auth.isAuthenticated {
    ///     try await client.signInAnonymously()
    /// }
    /// ```
    /// - Throws: ``FlowError/server(code:message:)`` with `sign_up_disabled` when the server does not let people create
    ///   accounts, the failure node's ``FlowError`` otherwise.
    @discardableResult
    public func signInAnonymously() async throws(FlowError) -> AuthState.User {
        do {
            try await ensureRestored()
        } catch {
            throw .client(error)
        }
        if state.auth.isAnonymous { return state.user }
        let previous = tokens
        // The guest button needs no input: the server presses it at the start (start → code → token).
        let user = try FlowClient.user(
            of: await flows.start("anonymous", options: SignInOptions(), carryingSession: false, pressing: "submit"))
        await retireReplaced(previous, by: user, revoke: true)
        return user
    }
}
