import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The one sign-in engine: starts interactions with a flow and walks them from node to node, running the actions of
/// the pressed button, until a code or a failure. Native apps (`/flows`), the hosted pages (``FlowPageRoutes``) and
/// the CLI run the same definitions through it.
package struct FlowEngine: Sendable {
    /// How long an interaction may be continued (PingDavinci's default session, 15 minutes).
    static let interactionLifetime: TimeInterval = 15 * 60
    /// Refused submissions after which an interaction fails.
    static let maximumAttempts = 10
    /// The parameters a start takes: what `/authorize` takes from a native client, `action`, a button of the start
    /// node to press at once with no values (the anonymous flow's guest button: start → code → token), and
    /// `client_secret`, with which a confidential client authenticates (``AccountChangeGate``).
    package static let startParameters: Set<String> = [
        "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
        "login_hint", "ui_locales", "acr_values", "resource", "allow_migration", "action", "client_secret", "dpop_jkt",
    ]

    /// The flows it runs, and the store, accounts, keys and clock their steps use.
    package let services: FlowServices
    /// Where its actions log: the request's logger (its id in every line) when a route sets it.
    package var logger: Logger

    /// Runs the flows of `services`, logging to `limen.flows` until ``logging(to:)`` gives it a request's logger.
    package init(services: FlowServices) {
        self.services = services
        self.logger = Logger(label: "limen.flows")
    }

    /// The flows it runs.
    package var catalog: FlowCatalog { services.flows }

    /// The engine logging to `logger` (a request's).
    package func logging(to logger: Logger) -> FlowEngine {
        var engine = self
        engine.logger = logger
        return engine
    }

    // MARK: Start

    /// Starts an interaction with flow `name` for the authorization request in `parameters`; `signedIn` is the access
    /// token the start carried, when the device has a user signed in (``AccountLinking``): it must be the same
    /// client's.
    ///
    /// With an `action` parameter the start node's button of that key is pressed at once, with no values, as if
    /// submitted from `origin`: a node that needs no input (the anonymous flow's guest button) ends in its code
    /// without the interaction ever being stored; otherwise the answer is what that submission gives (an error node
    /// for missing values, say), and the interaction is stored to be continued.
    package func start(
        flow name: String,
        parameters: FormFields,
        signedIn: AccessTokenClaims? = nil,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowAnswer {
        guard let flow = catalog.flows[name] else {
            return .failure("unknown_flow", "There is no flow \(name).", status: .notFound)
        }
        if let unknown = parameters.names.subtracting(Self.startParameters).min() {
            return .failure("invalid_request", "\(unknown) is not a parameter of a flow start", status: .invalid)
        }
        let validator = AuthorizationValidator(
            store: services.store, resources: services.resources, clients: services.clientCache)
        let accepted: AuthorizationValidator.Accepted
        switch try await validator.validate(parameters.adding("response_type", "code")) {
        case .accepted(let request): accepted = request
        case .errorPage(let error, let description), .redirectError(_, let error, let description, _):
            return .failure(error, description, status: error == "invalid_client" ? .unauthenticated : .invalid)
        }
        guard accepted.client.isFirstParty else {
            return .failure(
                "unauthorized_client",
                "Native flows are for the provider's own apps: a third-party app signs people in through /authorize "
                    + "(the authorization code flow with PKCE).", status: .forbidden)
        }
        if let secret = parameters["client_secret"], !accepted.client.isProved(bySecret: secret) {
            return AccountChangeRefusal.clientNotAuthenticated.flowAnswer
        }
        guard let challenge = accepted.codeChallenge else {
            return .failure(
                "invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256",
                status: .invalid)
        }
        let allowMigration: Bool?
        switch parameters["allow_migration"] {
        case nil: allowMigration = nil
        case "true": allowMigration = true
        case "false": allowMigration = false
        default: return .failure("invalid_request", "allow_migration must be true or false", status: .invalid)
        }
        if let signedIn, signedIn.clientID != accepted.client.id {
            return .failure(
                "invalid_token", "The access token was issued to another client.", status: .unauthenticated)
        }
        if !services.signUpEnabled, flow.createsAccounts {
            return .failure(
                FlowActionRunner.signUpDisabled.code, FlowActionRunner.signUpDisabled.message, status: .forbidden)
        }
        let request = FlowRequest(
            redirectURI: accepted.redirectURI, scope: accepted.scope, state: accepted.state, nonce: accepted.nonce,
            codeChallenge: challenge, loginHint: accepted.loginHint, uiLocales: accepted.uiLocales,
            acrValues: accepted.acrValues,
            requiredLevel: AuthenticationLevel.required(acrValues: accepted.acrValues, client: accepted.client),
            signedInSubject: signedIn?.subject, allowMigration: allowMigration, proofKey: accepted.dpopJKT)
        if let refusal = try await setupRefusal(of: flow, signedIn: signedIn) { return refusal }
        let context = try await preparing(
            FlowContext(loginHint: accepted.loginHint), toShow: flow.node(flow.start), request: request)
        let id = RandomIdentifier.make()
        let now = services.now()
        let record = FlowInteractionRecord(
            idHash: RandomIdentifier.hash(id), flow: flow.id, node: flow.start, clientID: accepted.client.id,
            request: FlowInteractionRecord.encode(request), context: FlowInteractionRecord.encode(context),
            createdAt: now, expiresAt: now.addingTimeInterval(Self.interactionLifetime))
        if let action = parameters["action"] {
            let interaction = FlowInteraction(id: id, record: record, isStored: false, isHostedPage: false)
            let press = FlowSubmission(node: flow.start, action: action, values: [:], clientID: accepted.client.id)
            switch try await advance(interaction, submission: press, origin: origin) {
            case .answer(let answer): return answer
            case .completed(let interaction, let context):
                return try await complete(interaction, context: context, origin: origin)
            }
        }
        try await services.store.insertFlowInteraction(record)
        return FlowAnswer(
            interaction: id, node: continueNode(flow: flow, nodeID: flow.start, context: context),
            flow: flow.id)
    }

    // MARK: Continue

    /// Applies `submission` to interaction `id` (a native client's; a hosted page's interaction is not continued here).
    package func proceed(
        interaction id: String,
        submission: FlowSubmission,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowAnswer {
        func failure(_ code: String, _ message: String, _ status: FlowAnswerStatus) -> FlowAnswer {
            .failure(code, message, status: status, interaction: id)
        }
        let now = services.now()
        guard let record = try await services.store.flowInteraction(idHash: RandomIdentifier.hash(id)),
            !UpstreamAttempt.isAttempt(record), try record.decodedRequest().hostedPage != true
        else {
            return failure("unknown_interaction", "There is no such interaction.", .notFound)
        }
        guard submission.clientID == nil || submission.clientID == record.clientID else {
            return failure("wrong_client", "This interaction belongs to another client.", .forbidden)
        }
        guard record.expiresAt > now else {
            return failure("interaction_expired", "This interaction has expired: start again.", .gone)
        }
        guard record.status == .active else {
            return failure("interaction_finished", "This interaction is over: start again.", .conflict)
        }
        let interaction = FlowInteraction(id: id, record: record, isStored: true, isHostedPage: false)
        switch try await advance(interaction, submission: submission, origin: origin) {
        case .answer(let answer): return answer
        case .completed(let interaction, let context):
            return try await complete(interaction, context: context, origin: origin)
        }
    }

    /// Applies `submission` to an active, unexpired `interaction`: checks the node and button, validates the values,
    /// runs the button's actions and answers the next node, or says that the interaction reached `complete`.
    package func advance(
        _ interaction: FlowInteraction,
        submission: FlowSubmission,
        origin: RequestOrigin
    ) async throws(StorageError) -> FlowProgress {
        let record = interaction.record
        guard let flow = catalog.flows[record.flow], let node = flow.node(record.node) else {
            return .answer(
                .failure(
                    "unknown_flow", "The flow of this interaction is no longer offered.", status: .gone,
                    interaction: interaction.id))
        }
        let context = try record.decodedContext()
        guard submission.node == node.id else {
            return .answer(
                try await refuse(
                    interaction, flow: flow, node: node, context: context,
                    FlowRefusal(message: "This step is no longer current: continue from here.")))
        }
        guard let button = node.collector(submission.action), let behaviour = button.behaviour else {
            return .answer(
                try await refuse(
                    interaction, flow: flow, node: node, context: context,
                    FlowRefusal(
                        message: "This step has no button \(submission.action).",
                        details: [.init(key: submission.action, code: "unknown_action", message: "No such button.")])))
        }
        switch behaviour {
        case .federate(let upstream):
            return try await FlowFederationStep(engine: self).answer(
                submission, provider: upstream, button: button, interaction: interaction, flow: flow, node: node,
                context: context, origin: origin)
        case .switchFlow(let target):
            // A page moves only to a flow offered as a page, whatever a crafted submission names.
            guard let next = interaction.isHostedPage ? catalog.page(target) : catalog.flows[target] else {
                return .answer(
                    .failure(
                        "unknown_flow", "There is no flow \(target).", status: .notFound, interaction: interaction.id))
            }
            if !services.signUpEnabled, next.createsAccounts {
                return .answer(
                    .failure(
                        FlowActionRunner.signUpDisabled.code, FlowActionRunner.signUpDisabled.message,
                        status: .forbidden, interaction: interaction.id))
            }
            return .answer(try await move(interaction, to: next, nodeID: next.start, context: context))
        case .run(let actions, let nextNode):
            if !actions.allSatisfy(\.ignoresFields) {
                let problems = CollectorValidation(node: node, policy: node.passwordPolicy)
                    .problems(with: submission.values, answering: actions)
                if !problems.isEmpty {
                    return .answer(
                        try await refuse(
                            interaction, flow: flow, node: node, context: context, FlowRefusal(problems: problems)))
                }
            }
            // Count, then check: an attempt is counted before the actions check anything, so parallel submissions
            // never check more than `maximumAttempts` between them; one that is not refused gives it back.
            var attempt: Int?
            if !actions.isEmpty, interaction.isStored, !interaction.isHostedPage {
                attempt = try await services.store.countFlowInteractionAttempt(
                    idHash: record.idHash, maximum: Self.maximumAttempts)
                guard attempt != nil else { return .answer(try await tooManyAttempts(interaction, context: context)) }
            }
            let outcome = try await FlowActionRunner(services: services, logger: logger).run(
                actions, flow: flow.id, interaction: interaction.id, values: submission.values, context: context,
                clientID: record.clientID,
                request: try record.decodedRequest(), origin: origin)
            let refunds: Bool =
                if attempt == nil { false } else if case .refused = outcome { false } else { true }
            // The refund changes only the count, which nothing below reads: it runs beside the next step's writes
            // (in one commit of the SQLite store's group commit) and is awaited before the answer.
            let store = services.store
            func refund() async -> Result<Void, StorageError> {
                guard refunds else { return .success(()) }
                do {
                    return .success(try await store.refundFlowInteractionAttempt(idHash: record.idHash))
                } catch {
                    return .failure(error)
                }
            }
            async let refunded = refund()
            let answer = try await follow(
                outcome, interaction: interaction, flow: flow, node: node, next: nextNode, context: context,
                attempt: attempt)
            try await refunded.get()
            return answer
        }
    }

    /// Where an interaction goes after its actions ran on `node` (whose button leads to `next`); `attempt` is the
    /// count of the attempt already counted for them, if one was.
    package func follow(
        _ outcome: FlowActionOutcome,
        interaction: FlowInteraction,
        flow: FlowDefinition,
        node: FlowNodeDefinition,
        next: String?,
        context: FlowContext,
        attempt: Int? = nil
    ) async throws(StorageError) -> FlowProgress {
        switch outcome {
        case .proceeded(let context):
            return .answer(try await move(interaction, to: flow, nodeID: next ?? node.id, context: context))
        case .refused(let refusal):
            return .answer(
                try await refuse(interaction, flow: flow, node: node, context: context, refusal, attempt: attempt))
        case .failed(let code, let message, let status):
            try await finish(interaction, status: .failed, context: context)
            return .answer(.failure(code, message, status: status, interaction: interaction.id))
        case .completed(let context):
            return .completed(interaction, context)
        case .registered(let context):
            guard try await finish(interaction, status: .succeeded, context: context) else {
                return .answer(
                    .failure(
                        "interaction_finished", "This interaction is over: start again.", status: .conflict,
                        interaction: interaction.id))
            }
            return .answer(FlowAnswer(interaction: interaction.id, node: .registered, flow: flow.id))
        case .secondStep(let context):
            guard flow.node(SecondStep.nodeID) != nil else {
                try await finish(interaction, status: .failed, context: context)
                return .answer(
                    .failure(
                        "second_step_unavailable", "This flow cannot ask for the second step of a two-step sign-in.",
                        status: .forbidden, interaction: interaction.id))
            }
            return .answer(try await move(interaction, to: flow, nodeID: SecondStep.nodeID, context: context))
        }
    }
}
