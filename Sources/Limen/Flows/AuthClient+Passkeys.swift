import LimenOIDC

extension AuthClient {
    /// Signs in with a passkey, without a username: the built-in `passkey` flow's options go to `authenticator`, which
    /// lets the person choose one of their passkeys for this server; the session is stored as after any sign-in. A
    /// user-verified passkey is two factors in one, so no second step follows.
    ///
    /// ```swift
    /// do throws(FlowError) {
    ///     let user = try await client.signInWithPasskey(using: PlatformPasskeyAuthenticator(anchor: window))
    /// } catch .passkey(.cancelled) {
    ///     // The person closed the sheet: offer the other ways in.
    /// }
    /// ```
    /// - Throws: ``FlowError/passkey(_:)`` when the authenticator did not answer,
    ///   ``FlowError/refused(message:details:)`` when the server refused the passkey (`unknown_credential`,
    ///   `credential_cloned`, …), the failure node's ``FlowError`` otherwise.
    @discardableResult
    public func signInWithPasskey(
        using authenticator: some PasskeyAuthenticator, options: SignInOptions = SignInOptions()
    ) async throws(FlowError) -> AuthState.User {
        try await flows.complete("passkey", answeringPasskeyWith: authenticator, options: options)
    }

    /// Registers a new passkey for the user signed in on this device (the built-in `passkey-register` flow, started
    /// with their access token), named `name` in their account's list.
    ///
    /// ```swift
    /// try await client.registerPasskey(name: "Ada's iPhone", using: authenticator)
    /// ```
    /// - Throws: ``FlowError/server(code:message:)`` with `invalid_token` when nobody is signed in (or the sign-in is
    ///   older than the server allows for account changes: sign in again first), ``FlowError/passkey(_:)`` when the
    ///   authenticator did not answer, ``FlowError/refused(message:details:)`` when the server refused the new
    ///   passkey.
    public func registerPasskey(name: String? = nil, using authenticator: some PasskeyAuthenticator)
        async throws(FlowError)
    {
        _ = try await flows.complete(
            "passkey-register", answeringPasskeyWith: authenticator, values: ["name": name])
    }
}

extension FlowClient {
    /// Runs flow `flow` whose start node asks for a passkey: `authenticator` answers it, `values` fill the rest, and
    /// the node's submit button is pressed; the flow must then end.
    func complete(
        _ flow: String,
        answeringPasskeyWith authenticator: some PasskeyAuthenticator,
        values: [String: String?] = [:],
        options: SignInOptions = SignInOptions()
    ) async throws(FlowError) -> AuthState.User {
        let step: ContinueNode
        switch await start(flow, options: options, carryingSession: true) {
        case .success(let success): return success.user
        case let other: step = try Self.step(of: other)
        }
        let answered: Bool
        do throws(PasskeyError) {
            answered = try await step.answerPasskey(with: authenticator)
        } catch {
            throw .passkey(error)
        }
        guard answered else { throw .incomplete(step: step.id) }
        return try Self.user(of: await step.fill(values).next())
    }
}
