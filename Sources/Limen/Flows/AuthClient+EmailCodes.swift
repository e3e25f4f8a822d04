import Foundation

extension AuthClient {
    /// Handles a link opened in the app (a universal link, or the app's scheme): the redirect that a sign-in through
    /// ``AppToAppUserAgent`` waits for, or an email's link.
    ///
    /// A redirect matching such a sign-in's redirect URI is handed to it: the awaiting
    /// ``signIn(using:redirectURI:options:)`` then checks it and finishes, and `nil` is returned here.
    ///
    /// An email's link continues the step it was sent for (its fragment names the interaction and holds the code; the
    /// app's scheme or universal link is registered as the client's `email_link_uri`). A step that needs nothing more
    /// (the `email-code` flow) is submitted and its next node returned — after a sign-in, a ``Node/success(_:)``; a
    /// step that needs more (a new password in `password-reset`) comes back as ``Node/continue(_:)`` with the code
    /// filled in.
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     Task { if let node = await client.handle(url: url) { render(node) } }
    /// }
    /// ```
    /// - Returns: The email link's next node; `nil` for a redirect handed to a waiting sign-in, and when `url` is
    ///   neither that nor an email link naming an interaction that waits for a code in this client (another device's,
    ///   another launch's, or one already finished) — the app then has nothing more to do with it.
    public func handle(url: URL) async -> Node? {
        if await awaitedRedirects.deliver(url) { return nil }
        return await flows.handle(url: url)
    }

    /// Sends a one-time code to `email` by driving the built-in `email-code` flow (Rownd's sign-in link); finish with
    /// ``signIn(email:code:)`` or by opening the email's link (``handle(url:)``). An address without an account gets
    /// the same answer and no email.
    ///
    /// While a guest is signed in, a code for an address with an account signs in to that account only when
    /// `allowMigration` is set (see ``SignInOptions/allowMigration``): the code is spent once, so say it here, before
    /// it is sent; without it, ``signIn(email:code:)`` is refused with a detail whose code is `migration_required`.
    /// - Throws: ``FlowError/refused(message:details:)`` for an implausible address or mail that could not be sent,
    ///   the failure node's ``FlowError`` otherwise.
    public func requestEmailCode(email: String, allowMigration: Bool? = nil) async throws(FlowError) {
        try await flows.requestCode(
            flow: "email-code", email: email, options: SignInOptions(allowMigration: allowMigration))
    }

    /// Signs in with the code ``requestEmailCode(email:allowMigration:)`` sent to `email`.
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong or spent code (ask for a new one after five),
    ///   ``FlowError/secondStepRequired(_:)`` when the account has two-step sign-in on (answer its ``SecondStep`` to
    ///   finish), ``FlowError/incomplete(step:)`` when no code was asked for `email` by this client.
    @discardableResult
    public func signIn(email: String, code: String) async throws(FlowError) -> AuthState.User {
        try await flows.completeCode(flow: "email-code", email: email, values: ["code": code])
    }

    /// Sends a code to reset the password of `email` by driving the built-in `password-reset` flow; finish with
    /// ``resetPassword(email:code:newPassword:)``. An address without an account gets the same answer and no email.
    public func resetPassword(email: String) async throws(FlowError) {
        try await flows.requestCode(flow: "password-reset", email: email)
    }

    /// Sets `newPassword` with the code ``resetPassword(email:)`` sent, and signs in.
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong code or a password the policy refuses (the
    ///   details name the rule), ``FlowError/incomplete(step:)`` when no reset was asked for `email` by this client.
    @discardableResult
    public func resetPassword(email: String, code: String, newPassword: String) async throws(FlowError)
        -> AuthState.User
    {
        try await flows.completeCode(
            flow: "password-reset", email: email,
            values: ["code": code, "password": newPassword, "password-verify": newPassword])
    }

    /// Starts creating an account by driving the built-in `sign-up` flow (RxFireAuth's `register`): a code goes to
    /// `email` to prove it; finish with ``register(email:code:password:name:)``. When the address already has an
    /// account the answer is the same and its owner gets a notice instead of a code, so sign-up tells nobody who has
    /// an account.
    public func register(email: String) async throws(FlowError) {
        try await flows.requestCode(flow: "sign-up", email: email)
    }

    /// Creates the account ``register(email:)`` sent a code for, with its password and optional name, and signs it
    /// in (the email verified; ``AuthEvent/signInCompleted(method:userType:)`` with ``UserType/new``).
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong code or a password the policy refuses (the
    ///   details name the rule), ``FlowError/incomplete(step:)`` when no code was asked for `email` by this client.
    @discardableResult
    public func register(email: String, code: String, password: String, name: String? = nil) async throws(FlowError)
        -> AuthState.User
    {
        try await flows.completeCode(
            flow: "sign-up", email: email,
            values: ["code": code, "password": password, "password-verify": password, "name": name])
    }
}
