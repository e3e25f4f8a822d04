import LimenOIDC

extension AuthClient {
    /// Signs in with an email address and password by driving the built-in `sign-in` flow (Firebase's
    /// `signIn(withEmail:password:)`); the session is stored as after any sign-in.
    ///
    /// ```swift
    /// do throws(FlowError) {
    ///     let user = try await client.signIn(email: "ada@example.com", password: password)
    /// } catch .refused(let message, _) {
    ///     show(message)  // "The email address or password is wrong."
    /// }
    /// ```
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong email or password (the server does not say
    ///   which), the failure node's ``FlowError`` otherwise.
    @discardableResult
    public func signIn(email: String, password: String) async throws(FlowError) -> AuthState.User {
        try await completeFlow("sign-in", values: ["email": email, "password": password])
    }

    /// Starts `flow` (with `options`, carrying the signed-in user's token when `carryingSession` is set), fills its
    /// first step's text and password fields from `values` by key, submits it and expects the end of the flow.
    func completeFlow(
        _ flow: String,
        values: [String: String?],
        options: SignInOptions = SignInOptions(),
        carryingSession: Bool = true
    ) async throws(FlowError) -> AuthState.User {
        let step: ContinueNode
        switch await startFlow(flow, options: options, carryingSession: carryingSession) {
        case .success(let success): return success.user
        case let other: step = try Self.step(of: other)
        }
        return try Self.user(of: await step.fill(values).next())
    }

    /// The step of `node`, which must go on.
    static func step(of node: Node) throws(FlowError) -> ContinueNode {
        switch node {
        case .continue(let step): return step
        case .error(let error): throw .refused(message: error.message, details: error.details)
        case .failure(let failure): throw failure.cause
        case .success: throw .incomplete(step: "success")
        }
    }

    /// The user `node` signed in, which must be the end of the flow.
    static func user(of node: Node) throws(FlowError) -> AuthState.User {
        switch node {
        case .continue(let next): throw .incomplete(step: next.id)
        case .error(let error): throw .refused(message: error.message, details: error.details)
        case .failure(let failure): throw failure.cause
        case .success(let success): return success.user
        }
    }
}

extension ContinueNode {
    /// Fills the text and password fields from `values` by key (a `nil` value leaves a field as it is).
    @discardableResult
    func fill(_ values: [String: String?]) -> ContinueNode {
        for collector in collectors {
            guard case let value?? = values[collector.key] else { continue }
            (collector as? TextCollector)?.value = value
            (collector as? PasswordCollector)?.value = value
        }
        return self
    }
}
