import Foundation
import LimenServerStorage

extension FlowEngine {
    /// The ID of the hosted pages' interaction for a pending request: derived from the request's ID (the secret the
    /// browser that started it holds), so a page finds its interaction without carrying another identifier.
    static func pageInteractionID(for pending: PendingAuthorization) -> String {
        pageInteractionPrefix + pending.id
    }

    /// The pending request whose hosted pages' interaction is `id`, or `nil` when `id` is not of that form.
    package static func pendingRequestID(ofPageInteraction id: String) -> String? {
        id.hasPrefix(pageInteractionPrefix) ? String(id.dropFirst(pageInteractionPrefix.count)) : nil
    }

    /// What starts the ID of a hosted page's interaction (never a character of a random identifier).
    private static let pageInteractionPrefix = "page."

    /// The interaction a hosted page of `flow` continues for `pending`: the stored one while it is active in that
    /// flow, else a new one at the flow's start, stored only once it moves (in place of an older one of the request).
    /// A new one started in a browser signed in as a guest (`guest`) applies ``AccountLinking``'s cases to that guest,
    /// with migration allowed: the person upgrading in their own browser keeps their guest data, merged into an
    /// account they sign in to.
    package func pageInteraction(
        for pending: PendingAuthorization,
        flow: FlowDefinition,
        guest: String? = nil
    ) async throws(StorageError) -> FlowInteraction {
        let id = Self.pageInteractionID(for: pending)
        let idHash = RandomIdentifier.hash(id)
        let stored = try await services.store.flowInteraction(idHash: idHash)
        if let stored, stored.status == .active, stored.expiresAt > services.now(), stored.flow == flow.id {
            return FlowInteraction(id: id, record: stored, isStored: true, isHostedPage: true)
        }
        let record = pending.record
        let request = FlowRequest(hostedPageFor: pending, guest: guest)
        let fresh = FlowInteractionRecord(
            idHash: idHash, flow: flow.id, node: flow.start, clientID: record.clientID,
            request: FlowInteractionRecord.encode(request),
            context: FlowInteractionRecord.encode(FlowContext(loginHint: record.loginHint)),
            revision: stored?.revision ?? 0, createdAt: services.now(), expiresAt: record.expiresAt)
        return FlowInteraction(
            id: id, record: fresh, isStored: stored != nil, isHostedPage: true,
            replacesAnotherFlow: stored.map { $0.flow != flow.id } ?? false)
    }

    /// The hosted pages' sign-in of `subject`, whom `methods` authenticated outside their flows (an upstream provider
    /// the request named, or the browser session a request asks more of): the request's interaction of the sign-in
    /// page runs `complete` for them, so that it ends at once, or moves to the second step the user's two-step sign-in
    /// or the request's level needs (step-up), or fails when no way the user has reaches that level.
    package func pageSignIn(
        for pending: PendingAuthorization,
        subject: String,
        methods: AuthenticationMethods,
        method: SignInMethod?
    ) async throws(StorageError) -> FlowProgress {
        guard let flow = catalog.flows[FlowCatalog.signInFlow], let start = flow.node(flow.start) else {
            return .answer(.failure("unknown_flow", "This page is no longer offered.", status: .notFound))
        }
        let interaction = try await pageInteraction(for: pending, flow: flow)
        // A fresh context: what an abandoned first step on the page learnt (perhaps of someone else) must not carry
        // over to this sign-in.
        var context = FlowContext(subject: subject)
        (context.methods, context.method) = (methods, method)
        let outcome = try await FlowActionRunner(services: services, logger: logger).complete(
            context, request: try interaction.record.decodedRequest())
        return try await follow(outcome, interaction: interaction, flow: flow, node: start, next: nil, context: context)
    }

    /// The node a hosted page shows for `interaction` before anything is submitted: one with a `PASSKEY` (the sign-in
    /// node's autofill) is stored with a one-use challenge first, unless its challenge is still current.
    package func preparedPageAnswer(_ interaction: FlowInteraction) async throws(StorageError) -> FlowAnswer {
        let context = try interaction.record.decodedContext()
        guard let flow = catalog.flows[interaction.record.flow],
            flow.node(interaction.record.node)?.passkeyCollector != nil,
            context.passkey.map({ $0.expiresAt <= services.now() }) ?? true
        else { return try pageAnswer(interaction) }
        return try await move(interaction, to: flow, nodeID: interaction.record.node, context: context)
    }

    /// The node a hosted page shows for `interaction` as it stands.
    package func pageAnswer(_ interaction: FlowInteraction) throws(StorageError) -> FlowAnswer {
        guard let flow = catalog.flows[interaction.record.flow] else {
            return .failure("unknown_flow", "This page is no longer offered.", status: .notFound)
        }
        return FlowAnswer(
            interaction: interaction.id,
            node: continueNode(
                flow: flow, nodeID: interaction.record.node, context: try interaction.record.decodedContext()),
            flow: flow.id)
    }

    /// Ends a hosted page's interaction that reached `complete` (deleting the guest it replaced, if any), recording its
    /// `user.signed_in` from `origin` (none without one: nobody authenticated now); `false` when another request ended
    /// it first, or the user is disabled.
    package func finishPage(_ interaction: FlowInteraction, context: FlowContext, origin: RequestOrigin?)
        async throws(StorageError) -> Bool
    {
        if try await refusesDisabledUser(interaction, context: context, origin: origin) { return false }
        let records = origin.map { signInRecords(context, client: interaction.record.clientID, origin: $0) } ?? []
        guard try await finish(interaction, status: .succeeded, context: context, recording: records) else {
            return false
        }
        // Without an origin (a session's step-up) the context replaces no guest: a fresh one, with nobody to delete.
        try await AccountLinking(services: services).replaceGuest(
            in: context, request: try interaction.record.decodedRequest(), origin: origin ?? RequestOrigin())
        return true
    }
}
