import Foundation
import HTTPTypes
import LimenServerWire

/// The one sign-in engine: starts interactions with a flow and walks them from node to node, running the actions of
/// the pressed button, until a code or a failure. Native apps (`/flows`), and in time the hosted pages and the CLI,
/// run the same definitions through it.
struct FlowEngine: Sendable {
    /// How long an interaction may be continued (PingDavinci's default session, 15 minutes).
    static let interactionLifetime: TimeInterval = 15 * 60
    /// Refused submissions after which an interaction fails.
    static let maximumAttempts = 10
    /// The parameters a start takes: what `/authorize` takes from a native client.
    static let startParameters: Set<String> = [
        "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
        "login_hint", "ui_locales", "acr_values", "resource",
    ]

    /// The provider whose store, accounts, keys and clock are used.
    let provider: Provider
    /// The flows it runs.
    let catalog: FlowCatalog

    // MARK: Start

    /// Starts an interaction with flow `name` for the authorization request in `parameters`.
    func start(flow name: String, parameters: FormFields) async throws(StorageError) -> FlowAnswer {
        guard let flow = catalog.flows[name] else {
            return .failure("unknown_flow", "There is no flow \(name).", status: .notFound)
        }
        if let unknown = parameters.names.subtracting(Self.startParameters).min() {
            return .failure("invalid_request", "\(unknown) is not a parameter of a flow start", status: .badRequest)
        }
        let validator = AuthorizationValidator(store: provider.store, resources: provider.configuration.resources)
        let accepted: AuthorizationValidator.Accepted
        switch try await validator.validate(parameters.adding("response_type", "code")) {
        case .accepted(let request): accepted = request
        case .errorPage(let error, let description), .redirectError(_, let error, let description, _):
            return .failure(error, description, status: error == "invalid_client" ? .unauthorized : .badRequest)
        }
        guard let challenge = accepted.codeChallenge else {
            return .failure(
                "invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256",
                status: .badRequest)
        }
        if !provider.configuration.signUpEnabled, flow.createsAccounts {
            return .failure(
                FlowActionRunner.signUpDisabled.code, FlowActionRunner.signUpDisabled.message, status: .forbidden)
        }
        let acrValues = parameters["acr_values"]
        let request = FlowRequest(
            redirectURI: accepted.redirectURI, scope: accepted.scope, state: accepted.state, nonce: accepted.nonce,
            codeChallenge: challenge, loginHint: accepted.loginHint, uiLocales: accepted.uiLocales,
            acrValues: acrValues.map { String($0.prefix(256)) })
        let hint = accepted.loginHint.map(Accounts.normalise).flatMap { Accounts.isPlausibleEmail($0) ? $0 : nil }
        let context = FlowContext(email: hint)
        let id = RandomIdentifier.make()
        let now = provider.now()
        try await provider.store.insertFlowInteraction(
            FlowInteractionRecord(
                idHash: RandomIdentifier.hash(id), flow: flow.id, node: flow.start, clientID: accepted.client.id,
                request: FlowInteractionRecord.encode(request), context: FlowInteractionRecord.encode(context),
                createdAt: now, expiresAt: now.addingTimeInterval(Self.interactionLifetime)))
        return FlowAnswer(interaction: id, node: continueNode(flow: flow, nodeID: flow.start, context: context))
    }

    // MARK: Continue

    /// Applies `submission` to interaction `id`.
    func proceed(
        interaction id: String,
        submission: FlowSubmission,
        clientAddress: String
    ) async throws(StorageError) -> FlowAnswer {
        func failure(_ code: String, _ message: String, _ status: HTTPResponse.Status) -> FlowAnswer {
            .failure(code, message, status: status, interaction: id)
        }
        let now = provider.now()
        guard let record = try await provider.store.flowInteraction(idHash: RandomIdentifier.hash(id)) else {
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
        guard let flow = catalog.flows[record.flow], let node = flow.node(record.node) else {
            return failure("unknown_flow", "The flow of this interaction is no longer offered.", .gone)
        }
        let context = try record.decodedContext()
        guard submission.node == node.id else {
            return try await refuse(
                record, flow: flow, node: node, context: context,
                FlowRefusal(message: "This step is no longer current: continue from here."), id: id)
        }
        guard let button = node.collector(submission.action), let behaviour = button.behaviour else {
            return try await refuse(
                record, flow: flow, node: node, context: context,
                FlowRefusal(
                    message: "This step has no button \(submission.action).",
                    details: [.init(key: submission.action, code: "unknown_action", message: "No such button.")]),
                id: id)
        }
        switch behaviour {
        case .switchFlow(let target):
            guard let next = catalog.flows[target] else {
                return failure("unknown_flow", "There is no flow \(target).", .notFound)
            }
            if !provider.configuration.signUpEnabled, next.createsAccounts {
                return .failure(
                    FlowActionRunner.signUpDisabled.code, FlowActionRunner.signUpDisabled.message, status: .forbidden,
                    interaction: id)
            }
            return try await move(record, to: next, nodeID: next.start, context: context, id: id)
        case .run(let actions, let nextNode):
            if !actions.isEmpty {
                let problems = CollectorValidation(node: node, policy: node.passwordPolicy)
                    .problems(with: submission.values)
                if !problems.isEmpty {
                    return try await refuse(
                        record, flow: flow, node: node, context: context,
                        FlowRefusal(message: "Some fields need your attention.", details: problems), id: id)
                }
            }
            let outcome = try await FlowActionRunner(provider: provider).run(
                actions, flow: flow.id, interaction: id, values: submission.values, context: context,
                clientID: record.clientID,
                request: try record.decodedRequest(), clientAddress: clientAddress)
            switch outcome {
            case .proceeded(let context):
                return try await move(record, to: flow, nodeID: nextNode ?? node.id, context: context, id: id)
            case .refused(let refusal):
                return try await refuse(record, flow: flow, node: node, context: context, refusal, id: id)
            case .failed(let code, let message, let status):
                try await finish(record, status: .failed, context: context)
                return failure(code, message, status)
            case .completed(let context):
                return try await complete(record, context: context, id: id)
            }
        }
    }

    // MARK: Steps

    /// Moves the interaction to `nodeID` of `flow`.
    private func move(
        _ record: FlowInteractionRecord,
        to flow: FlowDefinition,
        nodeID: String,
        context: FlowContext,
        id: String
    ) async throws(StorageError) -> FlowAnswer {
        var next = record
        (next.flow, next.node, next.context, next.revision) =
            (flow.id, nodeID, FlowInteractionRecord.encode(context), record.revision + 1)
        guard try await provider.store.updateFlowInteraction(next) else { return try await current(id: id) }
        return FlowAnswer(interaction: id, node: continueNode(flow: flow, nodeID: nodeID, context: context))
    }

    /// Shows the same node again with `refusal`, counting the attempt; past ``maximumAttempts`` the interaction fails.
    private func refuse(
        _ record: FlowInteractionRecord,
        flow: FlowDefinition,
        node: FlowNodeDefinition,
        context: FlowContext,
        _ refusal: FlowRefusal,
        id: String
    ) async throws(StorageError) -> FlowAnswer {
        var next = record
        (next.attempts, next.context, next.revision) =
            (record.attempts + 1, FlowInteractionRecord.encode(context), record.revision + 1)
        if next.attempts >= Self.maximumAttempts { next.status = .failed }
        guard try await provider.store.updateFlowInteraction(next) else { return try await current(id: id) }
        guard next.status == .active else {
            return .failure(
                "too_many_attempts", "Too many attempts: start again.", status: .tooManyRequests, interaction: id)
        }
        return FlowAnswer(
            status: refusal.status, interaction: id,
            node: .error(
                node, policy: node.passwordPolicy, prefill: Self.prefill(context), message: refusal.message,
                details: refusal.details),
            retryAfter: refusal.retryAfter)
    }

    /// Ends the interaction with a code: marked succeeded first, so that of two racing completions one issues it.
    private func complete(_ record: FlowInteractionRecord, context: FlowContext, id: String) async throws(StorageError)
        -> FlowAnswer
    {
        guard let subject = context.subject, try await finish(record, status: .succeeded, context: context) else {
            return .failure("interaction_finished", "This interaction is over: start again.", status: .conflict)
        }
        let request = try record.decodedRequest()
        let code = RandomIdentifier.make()
        let now = provider.now()
        try await provider.store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: RandomIdentifier.hash(code), clientID: record.clientID, redirectURI: request.redirectURI,
                subject: subject, scope: request.scope, nonce: request.nonce, codeChallenge: request.codeChallenge,
                authTime: now, expiresAt: now.addingTimeInterval(AuthorizationFlow.codeLifetime)))
        return FlowAnswer(
            interaction: id,
            node: .success(
                code: code, state: request.state, issuer: provider.issuer.current,
                newUser: context.createdUser ?? false))
    }

    /// Marks the interaction over; returns whether this request did.
    @discardableResult
    private func finish(
        _ record: FlowInteractionRecord,
        status: FlowInteractionRecord.Status,
        context: FlowContext
    ) async throws(StorageError) -> Bool {
        var next = record
        (next.status, next.context, next.revision) = (
            status, FlowInteractionRecord.encode(context), record.revision + 1
        )
        return try await provider.store.updateFlowInteraction(next)
    }

    /// The interaction as another request just left it (this one lost the race to change it).
    private func current(id: String) async throws(StorageError) -> FlowAnswer {
        guard let record = try await provider.store.flowInteraction(idHash: RandomIdentifier.hash(id)),
            record.status == .active, let flow = catalog.flows[record.flow]
        else {
            return .failure("interaction_finished", "This interaction is over: start again.", status: .conflict)
        }
        return FlowAnswer(
            interaction: id, node: continueNode(flow: flow, nodeID: record.node, context: try record.decodedContext()))
    }

    private func continueNode(flow: FlowDefinition, nodeID: String, context: FlowContext) -> FlowNode {
        guard let node = flow.node(nodeID) else {
            return .failure(code: "unknown_node", message: "The flow has no node \(nodeID).")
        }
        return .continue(node, policy: node.passwordPolicy, prefill: Self.prefill(context))
    }

    /// The values filled in for the person: the email address already entered or hinted.
    private static func prefill(_ context: FlowContext) -> [String: String] {
        context.email.map { ["email": $0] } ?? [:]
    }
}

extension FlowDefinition {
    /// Whether some button of the flow creates an account.
    var createsAccounts: Bool {
        nodes.contains { $0.sets(password: .createAccount) }
    }
}

extension FlowNodeDefinition {
    /// The policy a new password must meet on this node: the server's baseline and the `PASSWORD` collector's own,
    /// when a button of the node creates an account or sets a password; `nil` when the node only checks one.
    var passwordPolicy: PasswordPolicy? {
        guard sets(password: .createAccount) || sets(password: .setPassword) else { return nil }
        let declared = collectors.first { $0.type == .password }?.policy ?? .standard
        return PasswordPolicy.standard.including(declared)
    }

    /// Whether a button of the node runs `action`.
    func sets(password action: FlowAction) -> Bool {
        collectors.contains {
            if case .run(let actions, _) = $0.behaviour { actions.contains(action) } else { false }
        }
    }
}
