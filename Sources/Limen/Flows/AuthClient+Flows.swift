import Foundation
import LimenOIDC

extension AuthClient {
    /// Starts the server-driven flow `name` (`sign-in`, `sign-up` or one the operator defined) and returns its first
    /// node (PingDavinci's `daVinci.start()`). Fill its collectors and call ``ContinueNode/next()`` until a
    /// ``Node/success(_:)`` — by then the authorization code was redeemed with this flow's PKCE verifier and the
    /// session stored, exactly as after a browser sign-in — or a ``Node/failure(_:)``. Nothing throws: a network
    /// failure is a failure node whose cause is ``FlowError/network(_:)``.
    ///
    /// ```swift
    /// var node = await client.startFlow("sign-in")
    /// while case .continue(let step) = node {
    ///     fill(step.collectors)
    ///     node = await step.next()
    /// }
    /// ```
    ///
    /// When someone is signed in, the start carries their access token (`Authorization: Bearer`, refreshed first if
    /// needed), so the server links what the flow proves to them (RxFireAuth's cases): a guest who signs up keeps
    /// their user ID and data; credentials of another account are an error node naming `migration_required` (a guest,
    /// unless ``SignInOptions/allowMigration`` is set) or `credential_in_use` (a user with an identity).
    /// - Parameters:
    ///   - name: The flow's name, the last part of `POST /flows/{flow}`.
    ///   - options: The scopes and hints of the authorization request (`loginHint` fills in the email address), and
    ///     ``SignInOptions/allowMigration``.
    public func startFlow(_ name: String, options: SignInOptions = SignInOptions()) async -> Node {
        await flows.start(name, options: options, carryingSession: true)
    }

    /// Signs in with an email address and password by driving the built-in `sign-in` flow (Firebase's
    /// `signIn(withEmail:password:)`); the session is stored as after any sign-in.
    ///
    /// ```swift
    /// do throws(FlowError) {
    ///     let user = try await client.signIn(email: "ada@example.com", password: password)
    /// } catch .refused(let message, _) {
    ///     show(message)  // "The email address or password is wrong."
    /// } catch .secondStepRequired(let step) {
    ///     try await step.answer(totp: await askForCode())  // two-step sign-in is on: see SecondStep
    /// }
    /// ```
    /// - Throws: ``FlowError/refused(message:details:)`` for a wrong email or password (the server does not say
    ///   which), ``FlowError/secondStepRequired(_:)`` when the account has two-step sign-in on (answer its
    ///   ``SecondStep`` to finish), the failure node's ``FlowError`` otherwise.
    @discardableResult
    public func signIn(email: String, password: String) async throws(FlowError) -> AuthState.User {
        try await flows.complete("sign-in", values: ["email": email, "password": password])
    }

    /// The flows of this client's provider, signing in to this client's session.
    nonisolated var flows: FlowClient {
        FlowClient(configuration: configuration, emailCodeSteps: emailCodeSteps, session: self)
    }
}

extension AuthClient: FlowSession {
    nonisolated func registeredForSignedInUser() -> Node {
        let state = state
        guard state.phase == .signedIn else {
            return .failure(
                FailureNode(cause: .server(code: "no_user", message: "Nobody is signed in on this device.")))
        }
        return .success(SuccessNode(user: state.user, userType: .existing))
    }

    /// Redeems a success node's code at `/token` on the browser sign-in's path (state, events, storage); `newUser`
    /// (the node's `new_user`) becomes the completion event's ``UserType``.
    func redeemFlowCode(
        _ code: String,
        state: String?,
        issuer: String?,
        newUser: Bool?,
        interaction: FlowInteraction
    ) async -> Node {
        let userType: UserType = newUser.map { $0 ? .new : .existing } ?? .unknown
        do throws(LimenError) {
            let user = try await performSignIn(method: interaction.method, userType: userType) {
                () async throws(LimenError) -> TokenSet in
                guard let state, ConstantTime.equals(state, interaction.request.state) else {
                    throw .protocolViolation(.authorizationResponse(.stateMismatch))
                }
                let metadata = try await metadata()
                if let issuer, issuer != metadata.issuer {
                    throw .protocolViolation(
                        .authorizationResponse(.issuerMismatch(expected: metadata.issuer, actual: issuer)))
                }
                let tokens = try await tokenClient()
                let request = interaction.request
                let response = try await LimenError.mapping { () async throws(OIDCError) in
                    try await tokens.exchangeCode(
                        code, redirectURI: request.redirectURI, codeVerifier: request.pkce.verifier)
                }
                return try await tokenSet(from: response, nonce: request.nonce, maxAge: interaction.maxAge)
            }
            return .success(SuccessNode(user: user, userType: userType))
        } catch {
            return .failure(FailureNode(cause: FlowError(error)))
        }
    }
}
