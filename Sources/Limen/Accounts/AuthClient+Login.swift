extension AuthClient {
    /// Signs in with an email address and password through the `sign-in` flow, deciding what happens to a guest
    /// signed in on the device (RxFireAuth's `login(email:password:allowMigration:)`):
    ///
    /// - nobody, or the same user, is signed in: the account is signed in;
    /// - a guest is signed in and `allowMigration` is `nil`: ``AccountError/migrationRequired(_:)``, carrying the
    ///   credentials — ask the person, then answer with ``login(with:allowMigration:)``;
    /// - a guest is signed in and `allowMigration` is set: the account is signed in and the guest deleted by the
    ///   provider, its unencrypted profile fields merged into the account's first when `true`;
    /// - a user with an identity is signed in: ``AccountError/credentialInUse`` (sign out first, or use
    ///   ``loginWithoutChecking(email:password:)``).
    ///
    /// A password signs in only to an account that has one: a guest signs up with
    /// ``linkAnonymousAccount(toEmail:password:name:code:)``.
    ///
    /// ```swift
    /// do {
    ///     let descriptor = try await client.login(email: email, password: password, allowMigration: nil)
    /// } catch .account(.migrationRequired(let credentials)) {
    ///     let descriptor = try await client.login(with: credentials, allowMigration: await askToKeepData())
    ///     if descriptor.replacedAnonymousUser { … }
    /// }
    /// ```
    /// - Throws: ``LimenError/account(_:)`` for the cases above, ``LimenError/flow(_:)`` with
    ///   ``FlowError/refused(message:details:)`` for a wrong email or password, other ``LimenError``s for the network,
    ///   the token endpoint and storage.
    @discardableResult
    public func login(email: String, password: String, allowMigration: Bool?) async throws(LimenError)
        -> LoginDescriptor
    {
        try await login(with: LoginCredentials(email: email, password: password), allowMigration: allowMigration)
    }

    /// Signs in with the credentials an ``AccountError/migrationRequired(_:)`` carried, with the person's answer
    /// (RxFireAuth's `login(with:allowMigration:)`): `true` carries the guest's unencrypted profile fields over to the
    /// account, `false` drops them; either way the guest is deleted. Nothing is typed again.
    /// - Throws: As ``login(email:password:allowMigration:)``.
    @discardableResult
    public func login(with credentials: LoginCredentials, allowMigration: Bool?) async throws(LimenError)
        -> LoginDescriptor
    {
        try await signIn(with: credentials, allowMigration: allowMigration, checking: true)
    }

    /// Signs in with an email address and password whoever is signed in on the device, asking nothing (RxFireAuth's
    /// `loginWithoutChecking`): the flow starts without the current user's token, so no linking or migration
    /// happens. Once the account is signed in, the previous user's session on this device is ended as by
    /// ``signOut(revoke:)`` (a guest left so is deleted by the provider's sweep of inactive guests); when the sign-in
    /// fails, the previous user stays signed in.
    /// - Throws: ``LimenError/flow(_:)`` with ``FlowError/refused(message:details:)`` for a wrong email or password,
    ///   other ``LimenError``s for the network, the token endpoint and storage.
    @discardableResult
    public func loginWithoutChecking(email: String, password: String) async throws(LimenError) -> LoginDescriptor {
        try await signIn(
            with: LoginCredentials(email: email, password: password), allowMigration: nil, checking: false)
    }

    /// The flow of `credentials` (`sign-in`, or `apple`), carrying the signed-in user's token when `checking` is set.
    private func signIn(with credentials: LoginCredentials, allowMigration: Bool?, checking: Bool)
        async throws(LimenError) -> LoginDescriptor
    {
        try await ensureRestored()
        let previous = tokens
        let guest = state.auth.isAnonymous ? previous?.subject : nil
        let user: AuthState.User
        do throws(FlowError) {
            let flow = credentials.flow
            user = try await flows.complete(
                flow.name, values: flow.values, options: SignInOptions(allowMigration: allowMigration),
                carryingSession: checking)
        } catch .refused(let message, let details) {
            throw AccountError(details: details, credentials: credentials).map(LimenError.account)
                ?? .flow(.refused(message: message, details: details))
        } catch {
            throw LimenError(error)
        }
        guard let userID = user.id else { throw .notSignedIn }
        await retireReplaced(previous, by: user, revoke: !checking)
        await rememberAppleUser(of: credentials, signedInAs: userID)
        return LoginDescriptor(allowMigration: allowMigration, anonymousUserID: guest, userID: userID)
    }
}
