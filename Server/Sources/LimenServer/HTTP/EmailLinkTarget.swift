import Foundation
import LimenServerCore
import LimenServerStorage

/// What the interaction named by an email's link is to the browser that opened it (``EmailLinkRoutes``). Only a hosted
/// page's interaction started in this very browser, standing on a node that checks an email code, is continued; any
/// other is never continued from the link, so the link cannot sign a browser into someone else's sign-in (login
/// CSRF) nor spend the code of an app's sign-in.
enum EmailLinkTarget {
    /// No interaction waits for a code under this ID: unknown, over, expired, or moved on from the code's step.
    case gone
    /// A native app's interaction, or a hosted page's started in another browser: the code is to be typed there.
    case elsewhere
    /// A hosted page's interaction started in this browser, waiting for the code.
    case here(Step)

    /// A hosted page's step that takes an email code.
    struct Step {
        /// The interaction, as stored.
        var interaction: FlowInteraction
        /// Its flow.
        var flow: FlowDefinition
        /// The node it stands on.
        var node: FlowNodeDefinition
        /// The key of the node's button that checks the code.
        var button: String
        /// The authorization request the pages are for.
        var pending: PendingAuthorization
    }

    /// Finds interaction `id` for `browser`.
    static func find(
        interaction id: String,
        browser: BrowserState,
        responder: SignInResponder
    ) async throws(StorageError) -> EmailLinkTarget {
        let now = responder.now()
        guard let record = try await responder.store.flowInteraction(idHash: RandomIdentifier.hash(id)),
            record.status == .active, record.expiresAt > now
        else { return .gone }
        guard try record.decodedRequest().hostedPage == true else { return .elsewhere }
        guard let requestID = FlowEngine.pendingRequestID(ofPageInteraction: id),
            let pending = try await PendingAuthorization.load(id: requestID, store: responder.store, now: now)
        else { return .gone }
        guard pending.isBound(to: browser.requestBinding) else { return .elsewhere }
        guard let flow = responder.flows.flows[record.flow], let node = flow.node(record.node),
            let button = node.emailCodeButton
        else { return .gone }
        let interaction = FlowInteraction(id: id, record: record, isStored: true, isHostedPage: true)
        return .here(Step(interaction: interaction, flow: flow, node: node, button: button, pending: pending))
    }
}

extension FlowNodeDefinition {
    /// The key of the button that checks the email code typed in the node's `code` field; `nil` when the node does not
    /// take one.
    var emailCodeButton: String? {
        guard collector("code")?.type == .text else { return nil }
        return collectors.first {
            if case .run(let actions, _) = $0.behaviour { actions.contains(.checkEmailCode) } else { false }
        }?.key
    }
}
