import Foundation
import LimenOIDC

/// Starts the provider's server-driven flows and drives them to their end: the nodes a flow answers with, the steps
/// waiting for a code sent by email, and the conveniences that fill a step and expect the end of the flow.
struct FlowClient: Sendable {
    /// The provider (its issuer), this client's ID, secret and redirect URI, and the transport.
    let configuration: Configuration
    /// The flow steps waiting for a code sent by email.
    let emailCodeSteps: EmailCodeSteps
    /// The session a flow signs in to.
    let session: any FlowSession

    /// Starts the flow `name` and returns its first node, carrying the signed-in user's access token only when
    /// `carryingSession` is set (a sign-in that ignores the current user starts without it); `action` names a button
    /// of the first node for the server to press at once with no values (the start's `action` parameter), which saves
    /// a round trip for a node that needs no input. See ``AuthClient/startFlow(_:options:)``.
    func start(
        _ name: String,
        options: SignInOptions,
        carryingSession: Bool,
        pressing action: String? = nil
    ) async -> Node {
        guard let redirectURI = configuration.redirectURI else {
            return .failure(FailureNode(cause: .client(.configuration(.missingKey("redirectURI")))))
        }
        let request: AuthorizationRequest
        do throws(LimenError) {
            request = try await session.authorizationRequest(redirectURI: redirectURI, options: options)
        } catch {
            return .failure(FailureNode(cause: FlowError(error)))
        }
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
                ("dpop_jkt", request.dpopJKT),
                ("action", action),
            ])
        let interaction = FlowInteraction(
            flows: self, id: "", request: request, maxAge: options.maxAge.map(TimeInterval.init),
            method: SignInMethod(flow: name))
        let url = configuration.issuer.appendingPathComponent("flows").appendingPathComponent(name)
        // A start for a signed-in user is an account change: a confidential client proves itself, as at /token.
        let secret = configuration.clientSecret.map { [("client_secret", $0)] } ?? []
        let answer: HTTPResponse
        do throws(LimenError) {
            let token = carryingSession ? try await session.validAccessToken(minimumTimeToLive: nil) : nil
            guard let token else { return await interaction.send(.form(url: url, fields), submitted: nil) }
            answer = try await session.send(
                .form(url: url, fields + secret), presenting: token, through: configuration.transport)
        } catch {
            return .failure(FailureNode(cause: FlowError(error)))
        }
        return await interaction.node(answering: answer, submitted: nil)
    }

    /// Starts `flow` (with `options`, carrying the signed-in user's token when `carryingSession` is set), fills its
    /// first step's text and password fields from `values` by key, submits it and expects the end of the flow.
    func complete(
        _ flow: String,
        values: [String: String?],
        options: SignInOptions = SignInOptions(),
        carryingSession: Bool = true
    ) async throws(FlowError) -> AuthState.User {
        let step: ContinueNode
        switch await start(flow, options: options, carryingSession: carryingSession) {
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

    /// The user `node` signed in, which must be the end of the flow; a second step (the node `mfa`) is thrown for the
    /// caller to answer.
    static func user(of node: Node) throws(FlowError) -> AuthState.User {
        switch node {
        case .continue(let next) where next.id == SecondStep.nodeID: throw .secondStepRequired(SecondStep(next))
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
