import Foundation
import LimenServerStorage

/// An interaction as the engine changes it: its ID, its record, and whether the record is in the store yet.
package struct FlowInteraction: Sendable {
    /// The interaction's ID (only its SHA-256 is stored).
    package var id: String
    /// Where it stands.
    package var record: FlowInteractionRecord
    /// Whether a row holds ``record`` at its revision (a hosted page's interaction is stored once it moves).
    package var isStored: Bool
    /// Whether the hosted pages drive it: its success starts a browser session, the consent page asks for consent, and
    /// a refusal on its node is not stored (the lockout, the code's tries and the rate limit count instead).
    package var isHostedPage: Bool
    /// Whether the stored row is another flow's (a sign-up in another tab) that this fresh hosted-page interaction
    /// would replace once it moves: a refusal here stores nothing, so it cannot undo the other flow's progress.
    package var replacesAnotherFlow: Bool

    /// Makes it of its parts.
    package init(
        id: String, record: FlowInteractionRecord, isStored: Bool, isHostedPage: Bool, replacesAnotherFlow: Bool = false
    ) {
        self.id = id
        self.record = record
        self.isStored = isStored
        self.isHostedPage = isHostedPage
        self.replacesAnotherFlow = replacesAnotherFlow
    }
}

/// What a submission gave: a node to answer, or the interaction reached `complete` for the user in the context.
package enum FlowProgress: Sendable {
    /// The node to show (continue, error or failure).
    case answer(FlowAnswer)
    /// `complete` ran: the caller ends the interaction its own way (a code for a native client, a browser session
    /// for a hosted page).
    case completed(FlowInteraction, FlowContext)
}

extension FlowEngine {
    /// Moves the interaction to `nodeID` of `flow`.
    package func move(
        _ interaction: FlowInteraction,
        to flow: FlowDefinition,
        nodeID: String,
        context: FlowContext
    ) async throws(StorageError) -> FlowAnswer {
        let context = try await preparing(context, toShow: flow.node(nodeID), request: interaction.record)
        var next = interaction.record
        (next.flow, next.node, next.context, next.revision) =
            (flow.id, nodeID, FlowInteractionRecord.encode(context), next.revision + 1)
        guard try await write(next, replacing: interaction) else { return try await current(id: interaction.id) }
        return FlowAnswer(
            interaction: interaction.id, node: continueNode(flow: flow, nodeID: nodeID, context: context),
            flow: flow.id)
    }

    /// Shows the same node again with `refusal`, counting the attempt unless `attempt` says it was counted (in one
    /// statement, before anything was checked); at ``maximumAttempts`` the interaction fails. A hosted page's refusal
    /// changes nothing stored but the node's new passkey challenge (the page shows it; the old one is spent), and not
    /// even that in place of another flow's interaction of the request.
    package func refuse(
        _ interaction: FlowInteraction,
        flow: FlowDefinition,
        node: FlowNodeDefinition,
        context: FlowContext,
        _ refusal: FlowRefusal,
        attempt: Int? = nil
    ) async throws(StorageError) -> FlowAnswer {
        var context = try await preparing(context, toShow: node, request: interaction.record)
        if !interaction.isHostedPage {
            var next = interaction.record
            if let attempt {
                next.attempts = attempt
            } else if interaction.isStored {
                guard
                    let counted = try await services.store.countFlowInteractionAttempt(
                        idHash: next.idHash, maximum: Self.maximumAttempts)
                else { return try await tooManyAttempts(interaction, context: context) }
                next.attempts = counted
            } else {
                next.attempts += 1
            }
            (next.context, next.revision) = (FlowInteractionRecord.encode(context), next.revision + 1)
            if next.attempts >= Self.maximumAttempts { next.status = .failed }
            guard try await write(next, replacing: interaction) else { return try await current(id: interaction.id) }
            guard next.status == .active else { return Self.tooManyAttemptsAnswer(interaction) }
        } else if context.passkey != nil, !interaction.replacesAnotherFlow {
            var next = interaction.record
            (next.context, next.revision) = (FlowInteractionRecord.encode(context), next.revision + 1)
            if try await !write(next, replacing: interaction) {
                // A parallel submission of the page stored its challenge first: this one is still refused, and shows
                // the challenge that is stored.
                guard let stored = try await services.store.flowInteraction(idHash: next.idHash),
                    stored.status == .active
                else { return try await current(id: interaction.id) }
                context = try stored.decodedContext()
            }
        }
        return FlowAnswer(
            status: refusal.status, interaction: interaction.id,
            node: .error(
                node.offering(context.secondStep), policy: node.passwordPolicy, prefill: Self.prefill(context),
                message: refusal.message, details: refusal.details),
            retryAfter: refusal.retryAfter, flow: flow.id)
    }

    /// The answer once an interaction has no attempts left: it is marked failed (if another request has not ended it).
    func tooManyAttempts(_ interaction: FlowInteraction, context: FlowContext) async throws(StorageError) -> FlowAnswer
    {
        if let record = try await services.store.flowInteraction(idHash: interaction.record.idHash),
            record.status == .active
        {
            var current = interaction
            current.record = record
            try await finish(current, status: .failed, context: try record.decodedContext())
        }
        return Self.tooManyAttemptsAnswer(interaction)
    }

    /// The failure of an interaction with no attempts left.
    private static func tooManyAttemptsAnswer(_ interaction: FlowInteraction) -> FlowAnswer {
        .failure(
            "too_many_attempts", "Too many attempts: start again.", status: .tooManyRequests,
            interaction: interaction.id)
    }

    /// Ends a native interaction with a code: marked succeeded first, so that of two racing completions one issues it.
    /// A refusal of another submission that moved the revision meanwhile does not undo this one's actions (a password
    /// already reset): the completion is applied again on top of it while the interaction is active.
    /// The code is stored with the `user.signed_in` event from `origin`, in one unit.
    package func complete(_ interaction: FlowInteraction, context: FlowContext, origin: RequestOrigin)
        async throws(StorageError) -> FlowAnswer
    {
        let over = FlowAnswer.failure(
            "interaction_finished", "This interaction is over: start again.", status: .conflict)
        guard let subject = context.subject else { return over }
        if try await refusesDisabledUser(interaction, context: context, origin: origin) { return Self.disabledAnswer }
        var current = interaction
        while try await !finish(current, status: .succeeded, context: context) {
            guard let record = try await services.store.flowInteraction(idHash: interaction.record.idHash),
                record.status == .active
            else { return over }
            current.record = record
        }
        let request = try interaction.record.decodedRequest()
        try await AccountLinking(services: services).replaceGuest(in: context, request: request, origin: origin)
        let code = RandomIdentifier.make()
        let now = services.now()
        try await services.store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: RandomIdentifier.hash(code), clientID: interaction.record.clientID,
                redirectURI: request.redirectURI, subject: subject, scope: request.scope, nonce: request.nonce,
                codeChallenge: request.codeChallenge, authTime: now,
                expiresAt: now.addingTimeInterval(AuthorizationFlow.codeLifetime), methods: context.methods,
                proofKey: request.proofKey),
            recording: signInRecords(context, client: interaction.record.clientID, origin: origin))
        return FlowAnswer(
            interaction: interaction.id,
            node: .success(
                code: code, state: request.state, issuer: services.issuer.current,
                newUser: context.createdUser ?? false))
    }

    /// Marks the interaction over; returns whether this request did (an unstored one is this request's alone).
    /// `events` are written with the change, in one unit.
    @discardableResult
    package func finish(
        _ interaction: FlowInteraction,
        status: FlowInteractionRecord.Status,
        context: FlowContext,
        recording events: [SecurityEventRecord] = []
    ) async throws(StorageError) -> Bool {
        guard interaction.isStored else {
            // Nothing to change (a page's interaction never stored): the events are the only write.
            try await services.store.insertSecurityEvents(events)
            return true
        }
        var next = interaction.record
        (next.status, next.context, next.revision) = (status, FlowInteractionRecord.encode(context), next.revision + 1)
        return try await services.store.updateFlowInteraction(next, recording: events)
    }

    /// Stores `next`, the change of `interaction`: an update of its revision, or the first row of an unstored one.
    private func write(_ next: FlowInteractionRecord, replacing interaction: FlowInteraction) async throws(StorageError)
        -> Bool
    {
        guard interaction.isStored else {
            try await services.store.insertFlowInteraction(next)
            return true
        }
        return try await services.store.updateFlowInteraction(next)
    }

    /// The interaction's current node as it stands in the store (as another request just left it, when this one lost
    /// the race to change it): a setup node shows its secret again, the new recovery codes are never shown again.
    func current(id: String) async throws(StorageError) -> FlowAnswer {
        guard let record = try await services.store.flowInteraction(idHash: RandomIdentifier.hash(id)),
            record.status == .active, let flow = catalog.flows[record.flow]
        else {
            return .failure("interaction_finished", "This interaction is over: start again.", status: .conflict)
        }
        let context = try await reshowingSetup(
            try record.decodedContext(), toShow: flow.node(record.node), request: record)
        return FlowAnswer(
            interaction: id, node: continueNode(flow: flow, nodeID: record.node, context: context), flow: flow.id)
    }

    /// The node `nodeID` of `flow` as the person sees it next.
    func continueNode(flow: FlowDefinition, nodeID: String, context: FlowContext) -> FlowNode {
        guard let node = flow.node(nodeID) else {
            return .failure(code: "unknown_node", message: "The flow has no node \(nodeID).")
        }
        return .continue(node.offering(context.secondStep), policy: node.passwordPolicy, prefill: Self.prefill(context))
    }

    /// The values filled in for the person: the email address already entered or hinted, the phone number entered,
    /// a `PASSKEY`'s options (the JSON text of the ceremony the node shows), and what the `LABEL`s show
    /// (``FlowContext/shown``).
    package static func prefill(_ context: FlowContext) -> [String: String] {
        var values = context.shown.merging(["email": context.email, "phone": context.phone].compactMapValues { $0 }) {
            $1
        }
        if let passkey = context.passkey { values[passkey.collector] = passkey.options }
        return values
    }
}
