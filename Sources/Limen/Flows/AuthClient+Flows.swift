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
        await startFlow(name, options: options, carryingSession: true)
    }

    /// ``startFlow(_:options:)``, with the signed-in user's access token only when `carryingSession` is set (a sign-in
    /// that ignores the current user starts without it); `action` names a button of the first node for the server to
    /// press at once with no values (the start's `action` parameter), which saves a round trip for a node that needs
    /// no input.
    func startFlow(
        _ name: String,
        options: SignInOptions,
        carryingSession: Bool,
        pressing action: String? = nil
    ) async -> Node {
        guard let redirectURI = configuration.redirectURI else {
            return .failure(FailureNode(cause: .client(.configuration(.missingKey("redirectURI")))))
        }
        let request = authorizationRequest(redirectURI: redirectURI, options: options)
        let fields =
            [
                ("client_id", request.clientID), ("redirect_uri", redirectURI.absoluteString),
                ("scope", request.scopeValue), ("state", request.state), ("nonce", request.nonce),
                ("code_challenge", request.pkce.challenge), ("code_challenge_method", request.pkce.method),
            ]
            + FormEncoding.present([
                ("login_hint", options.loginHint),
                ("ui_locales", options.uiLocales.isEmpty ? nil : options.uiLocales.joined(separator: " ")),
                ("acr_values", options.acrValues.isEmpty ? nil : options.acrValues.joined(separator: " ")),
                ("allow_migration", options.allowMigration.map { $0 ? "true" : "false" }),
                ("action", action),
            ])
        let interaction = FlowInteraction(
            client: self, id: "", request: request, maxAge: options.maxAge.map(TimeInterval.init))
        let url = configuration.issuer.appendingPathComponent("flows").appendingPathComponent(name)
        let token: String?
        do throws(LimenError) {
            token = carryingSession ? try await validAccessToken() : nil
        } catch {
            return .failure(FailureNode(cause: FlowError(error)))
        }
        guard let token else { return await interaction.send(.form(url: url, fields), submitted: nil) }
        // A start for a signed-in user is an account change: a confidential client proves itself, as at /token.
        let secret = configuration.clientSecret.map { [("client_secret", $0)] } ?? []
        let start = HTTPRequest.form(url: url, fields + secret, headers: ["Authorization": "Bearer \(token)"])
        return await interaction.send(start, submitted: nil)
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
            let user = try await performSignIn(method: .flow, userType: userType) {
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
