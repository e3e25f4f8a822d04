import Foundation
import LimenServerStorage

/// `require_consent` in a native flow: a consent node that lists the requested scopes with Allow (remembers the grant,
/// as the consent page does, then runs the rest of the button's actions) and Deny (ends the interaction with
/// `access_denied`). A first-party client, or scopes allowed before, skip it; the hosted pages ask on the consent page.
struct FlowConsentStep: Sendable {
    /// The consent node's `id`.
    package static let nodeID = "consent"
    /// Its buttons' keys.
    static let (allow, deny) = ("allow", "deny")

    /// The engine whose interaction it continues.
    package let engine: FlowEngine

    /// What `subject` must allow `clientID` before a code for `scope` is issued, or `nil` when nothing: the client is
    /// first-party, or every scope was allowed before (``ConsentStore/hasConsent(of:for:scopes:)``, the rule of the
    /// consent page too). The client's record comes through the provider's ``ClientCache``, as at `/token`.
    package static func asked(
        services: FlowServices,
        subject: String,
        clientID: String,
        scope: String
    ) async throws(StorageError) -> FlowConsentState? {
        let scopes = scope.split(separator: " ").map(String.init)
        guard let client = try await services.clientCache.client(id: clientID, in: services.store) else {
            return FlowConsentState(clientName: clientID, scopes: scopes)
        }
        if try await services.store.hasConsent(of: subject, for: client, scopes: scopes) { return nil }
        return FlowConsentState(clientName: client.branding?.displayName ?? client.name, scopes: scopes)
    }

    /// The consent node for `consent`: a label per scope, Allow and Deny.
    package static func node(_ consent: FlowConsentState) -> FlowNodeDefinition {
        FlowNodeDefinition(
            id: nodeID, name: "Allow access?", description: "\(consent.clientName) would like to:",
            collectors: consent.scopes.enumerated().map { index, scope in
                CollectorDefinition(type: .label, key: "scope-\(index)", label: ScopeDescriptions.describe(scope))
            } + [
                CollectorDefinition(
                    type: .submitButton, key: allow, label: "Allow", behaviour: .run(actions: [], next: nil)),
                CollectorDefinition(
                    type: .flowButton, key: deny, label: "Deny", behaviour: .run(actions: [], next: nil)),
            ])
    }

    /// Answers a submission made while the consent node is shown.
    package func answer(
        _ submission: FlowSubmission,
        consent: FlowConsentState,
        interaction: FlowInteraction,
        flow: FlowDefinition,
        context: FlowContext,
        clientAddress: String
    ) async throws(StorageError) -> FlowProgress {
        let node = Self.node(consent)
        guard submission.node == Self.nodeID, [Self.allow, Self.deny].contains(submission.action) else {
            return .answer(
                try await engine.refuse(
                    interaction, flow: flow, node: node, context: context,
                    FlowRefusal(message: "Choose Allow or Deny.")))
        }
        guard submission.action == Self.allow, let subject = context.subject,
            let origin = flow.node(interaction.record.node)
        else {
            try await engine.finish(interaction, status: .failed, context: context)
            return .answer(
                .failure(
                    "access_denied", "You did not allow this app.", status: .forbidden, interaction: interaction.id))
        }
        let services = engine.services
        try await services.store.recordConsent(
            subject: subject, clientID: interaction.record.clientID, scopes: Set(consent.scopes), at: services.now())
        var allowed = context
        allowed.consent = nil
        let outcome = try await FlowActionRunner(services: services, logger: engine.logger).run(
            consent.remaining, flow: flow.id, interaction: interaction.id, values: [:], context: allowed,
            clientID: interaction.record.clientID, request: try interaction.record.decodedRequest(),
            clientAddress: clientAddress)
        return try await engine.follow(
            outcome, interaction: interaction, flow: flow, node: origin, next: consent.next, context: allowed)
    }
}
