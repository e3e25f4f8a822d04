import Foundation
import LimenOIDC
import LimenServerStorage
import LimenWire

/// An `IDP` collector in a native flow ("Continue with …" an upstream provider), in three steps:
///
/// 1. Pressed (``answer(_:provider:button:interaction:flow:node:context:origin:)`` without a `code`): an
///    ``UpstreamAttempt`` is stored for the interaction and the node answered is `redirect`, the provider's
///    authorization URL, for the app to open in the platform's web session. The interaction stays on its node.
/// 2. The provider sends the browser back to Limen (``returned(_:query:state:attempt:interactionID:action:)``): the
///    response is checked and the ID token validated as for the hosted pages (``UpstreamSignIn``); the identity is
///    kept with the interaction and the browser sent to the app's redirect URI with a one-time `code`, the
///    interaction's `state` and `iss` — or with an OAuth `error` (`access_denied`, `temporarily_unavailable`).
/// 3. The app continues the interaction with that `code` (the same button, `values: {"code": …}`): the code is spent,
///    the identity resolved by ``AccountLinking``'s cases, and `require_consent` and `complete` run as after any
///    button — a code to redeem, the consent node, or an error node naming the linking case.
///
/// Holding the interaction's ID is not enough to take over a sign-in made in someone else's browser: the code goes
/// only to the redirect URI.
package struct FlowFederationStep: Sendable {
    /// The error detail code of a continuation whose `code` is wrong, spent or not for this button.
    static let invalidCode = "invalid_code"
    /// The error detail code when the provider cannot be reached (`503`, try again later).
    static let providerUnavailable = "provider_unavailable"

    /// The engine whose interaction it continues.
    package let engine: FlowEngine

    /// Makes it of its parts.
    package init(engine: FlowEngine) {
        self.engine = engine
    }

    private var services: FlowServices { engine.services }
    private var upstream: UpstreamSignIn { UpstreamSignIn(store: services.store, now: services.now) }

    /// Answers the press of `button`, an `IDP` collector for upstream provider `providerID`, or its continuation.
    package func answer(
        _ submission: FlowSubmission,
        provider providerID: String,
        button: CollectorDefinition,
        interaction: FlowInteraction,
        flow: FlowDefinition,
        node: FlowNodeDefinition,
        context: FlowContext,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowProgress {
        let step = Step(button: button, interaction: interaction, flow: flow, node: node, context: context)
        guard !interaction.isHostedPage else {
            return try await step.refuse(with: engine, FlowRefusal(message: "Use the “\(button.label)” button."))
        }
        guard let client = services.upstreamProviders[providerID] else {
            return .answer(
                .failure(
                    "unknown_provider", "Signing in with \(providerID) is not offered here.", status: .notFound,
                    interaction: interaction.id))
        }
        if let code = FlowActionRunner.text(submission.values["code"]) {
            return try await continued(step, client: client, code: code, origin: origin)
        }
        return try await begin(step, client: client)
    }

    /// Where one press or continuation stands.
    private struct Step {
        var button: CollectorDefinition
        var interaction: FlowInteraction
        var flow: FlowDefinition
        var node: FlowNodeDefinition
        var context: FlowContext

        /// The node again with `refusal`.
        func refuse(with engine: FlowEngine, _ refusal: FlowRefusal) async throws(StorageError) -> FlowProgress {
            .answer(try await engine.refuse(interaction, flow: flow, node: node, context: context, refusal))
        }

        /// The refusal `code` on the button.
        func refusal(
            _ code: String, _ message: String, status: FlowAnswerStatus = .ok, retryAfter: Int? = nil
        )
            -> FlowRefusal
        {
            FlowRefusal(
                message: message, details: [FlowErrorDetail(key: button.key, code: code, message: message)],
                status: status, retryAfter: retryAfter)
        }
    }

    /// Step 1: stores the attempt (and the interaction, when a start pressed the button) and answers `redirect`.
    private func begin(_ step: Step, client: UpstreamClient) async throws(StorageError) -> FlowProgress {
        var step = step
        if !step.interaction.isStored {
            try await services.store.insertFlowInteraction(step.interaction.record)
            step.interaction.isStored = true
        }
        let record = step.interaction.record
        let origin = UpstreamAttempt.Origin(
            clientID: record.clientID, request: try record.decodedRequest(), expiresAt: record.expiresAt)
        do {
            let url = try await upstream.begin(
                client, for: .interaction(id: step.interaction.id, action: step.button.key), origin: origin,
                issuer: services.issuer.current)
            return .answer(
                FlowAnswer(
                    interaction: step.interaction.id,
                    node: .redirect(url: url.absoluteString, provider: client.provider.id), flow: step.flow.id))
        } catch .storage(let error) {
            throw error
        } catch {
            error.log(provider: client.provider, to: engine.logger)
            let message =
                "\(client.provider.displayName) cannot be reached. Try again in a moment, or sign in another way."
            return try await step.refuse(
                with: engine,
                step.refusal(Self.providerUnavailable, message, status: .unavailable, retryAfter: 30))
        }
    }

    /// Step 2: the provider's callback for the sign-in `stored` made in interaction `interactionID` by button `action`.
    package func returned(
        _ client: UpstreamClient,
        query: String,
        state: String,
        attempt stored: UpstreamAttempt.Stored,
        interactionID: String,
        action: String
    ) async throws(StorageError) -> FlowFederationReturn {
        guard let record = try await services.store.flowInteraction(idHash: RandomIdentifier.hash(interactionID)),
            record.status == .active, record.expiresAt > services.now(), !UpstreamAttempt.isAttempt(record),
            let node = engine.catalog.flows[record.flow]?.node(record.node)
        else { return .lost }
        let request = try record.decodedRequest()
        let issuer = services.issuer.current
        func back(_ error: String, _ description: String, failure: UpstreamSignInError? = nil)
            -> FlowFederationReturn
        {
            .back(
                location: AuthorizationValidator.errorRedirect(
                    redirectURI: request.redirectURI, error: error, description: description, state: request.state,
                    issuer: issuer),
                failure: failure)
        }
        guard node.collector(action)?.behaviour == .federate(provider: client.provider.id) else {
            return back("access_denied", "The sign-in moved on to another step meanwhile.")
        }
        let identity: ExternalIdentity
        do {
            identity = try await upstream.finish(client, query: query, issuer: issuer, state: state, attempt: stored)
        } catch .storage(let error) {
            throw error
        } catch {
            let name = client.provider.displayName
            return error.isUnavailable
                ? back("temporarily_unavailable", "\(name) cannot be reached.", failure: error)
                : back("access_denied", "Signing in with \(name) did not work.", failure: error)
        }
        let code = RandomIdentifier.make()
        var context = try record.decodedContext()
        context.federation = FlowFederationResult(
            provider: client.provider.id, action: action, codeHash: RandomIdentifier.hash(code), identity: identity)
        var next = record
        (next.context, next.revision) = (FlowInteractionRecord.encode(context), record.revision + 1)
        guard try await services.store.updateFlowInteraction(next) else {
            return back("access_denied", "The sign-in moved on to another step meanwhile.")
        }
        return .back(
            location: AuthorizationValidator.responseRedirect(
                redirectURI: request.redirectURI, fields: [("code", code)], state: request.state, issuer: issuer),
            failure: nil)
    }

    /// Step 3: spends `code` (once: of two continuations with it one goes on), resolves the identity it stands for and
    /// runs `require_consent` and `complete`.
    private func continued(
        _ step: Step,
        client: UpstreamClient,
        code: String,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowProgress {
        var step = step
        let wrong = step.refusal(
            Self.invalidCode, "This sign-in with \(client.provider.displayName) is over: start it again.")
        guard let result = step.context.federation, result.action == step.button.key,
            result.provider == client.provider.id,
            ConstantTime.equals(Base64URL.encode(result.codeHash), Base64URL.encode(RandomIdentifier.hash(code)))
        else { return try await step.refuse(with: engine, wrong) }
        step.context.federation = nil
        var spent = step.interaction.record
        (spent.context, spent.revision) = (FlowInteractionRecord.encode(step.context), spent.revision + 1)
        guard step.interaction.isStored, try await services.store.updateFlowInteraction(spent) else {
            return try await step.refuse(with: engine, wrong)
        }
        step.interaction.record = spent
        let request = try spent.decodedRequest()
        let linking = AccountLinking(services: services)
        if !services.signUpEnabled,
            try await linking.makesAccount(for: result.identity, request: request)
        {
            try await engine.finish(step.interaction, status: .failed, context: step.context)
            return .answer(
                .failure(
                    FlowActionRunner.signUpDisabled.code, FlowActionRunner.signUpDisabled.message, status: .forbidden,
                    interaction: step.interaction.id))
        }
        let credential = AccountLinking.Credential(
            key: step.button.key, name: "identity at \(client.provider.displayName)")
        switch try await linking.identified(
            result.identity, as: credential, request: request, context: step.context, origin: origin)
        {
        case .failure(let refusal):
            return try await step.refuse(with: engine, refusal)
        case .success(let identified):
            let identified = identified.authenticated(
                by: [.federated], as: .oidc(issuer: client.provider.issuer))
            let outcome = try await FlowActionRunner(services: services, logger: engine.logger).run(
                [.requireConsent, .complete], flow: step.flow.id, interaction: step.interaction.id, values: [:],
                context: identified, clientID: spent.clientID, request: request, origin: origin)
            return try await engine.follow(
                outcome, interaction: step.interaction, flow: step.flow, node: step.node, next: nil,
                context: identified)
        }
    }
}
