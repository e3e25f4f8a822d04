extension AuthClient {
    /// Creates an account with an email address and password in one call (RxFireAuth's `register(email:password:)`)
    /// through the `sign-up` flow: a code goes to `email` to prove it, `code` is asked for it — show a field, return
    /// what the person typed, or `nil` to give up — and the account is created and signed in. With a guest signed in,
    /// the address is linked to the guest instead (the same user ID, its data kept: see
    /// ``linkAnonymousAccount(toEmail:password:name:code:)``). For a screen per step, use ``register(email:)`` and
    /// ``register(email:code:password:name:)``.
    ///
    /// ```swift
    /// let user = try await client.register(email: email, password: password) {
    ///     await codeField.nextSubmission()  // the code from the email, nil if the person cancels
    /// }
    /// ```
    /// When the address has an account already its owner is mailed a notice instead of a code (sign-up tells nobody
    /// who has an account), so the person has no code to type.
    /// - Throws: ``LimenError/userCancelled`` when `code` returns `nil`, ``LimenError/account(_:)`` with
    ///   ``AccountError/accountHasEmail`` when a user with an address is signed in, ``LimenError/flow(_:)`` with
    ///   ``FlowError/refused(message:details:)`` for an implausible address, a wrong code or a password the policy
    ///   refuses (the details name the rule).
    @discardableResult
    public func register(
        email: String,
        password: String,
        name: String? = nil,
        code: @Sendable () async -> String?
    ) async throws(LimenError) -> AuthState.User {
        do throws(FlowError) {
            try await flows.requestCode(flow: "sign-up", email: email)
        } catch {
            throw Self.accountError(error)
        }
        guard let typed = await code() else { throw .userCancelled }
        do throws(FlowError) {
            return try await flows.completeCode(
                flow: "sign-up", email: email,
                values: ["code": typed, "password": password, "password-verify": password, "name": name])
        } catch {
            throw Self.accountError(error)
        }
    }

    /// Turns the guest signed in on the device into an account with an email address and password (RxFireAuth's
    /// `linkAnonymousAccount(toEmail:password:)`): the `sign-up` flow, started with the guest's token, mails a code to
    /// `email`, `code` is asked for it, and the address is linked to the guest — the same user ID, its profile and
    /// session kept; ``AuthState/Auth/level`` becomes `AuthLevel.verified` (the code proved the address).
    ///
    /// ```swift
    /// let user = try await client.linkAnonymousAccount(toEmail: email, password: password) {
    ///     await codeField.nextSubmission()  // the code from the email, nil if the person cancels
    /// }
    /// ```
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/notAnonymous`` when no guest is signed in,
    ///   otherwise as ``register(email:password:name:code:)``.
    @discardableResult
    public func linkAnonymousAccount(
        toEmail email: String,
        password: String,
        name: String? = nil,
        code: @Sendable () async -> String?
    ) async throws(LimenError) -> AuthState.User {
        try await ensureRestored()
        guard state.auth.isAnonymous else { throw .account(.notAnonymous) }
        return try await register(email: email, password: password, name: name, code: code)
    }

    /// `error` in the SDK's domains, an error node's linking case as ``LimenError/account(_:)``.
    static func accountError(_ error: FlowError) -> LimenError {
        if case .refused(_, let details) = error, let account = AccountError(details: details, credentials: nil) {
            return .account(account)
        }
        return LimenError(error)
    }
}
