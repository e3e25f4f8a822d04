import Foundation
import LimenServerStorage

extension FlowEngine {
    /// `context` ready to show `node` of an interaction that answers `record`'s request: see
    /// ``preparing(_:toShow:request:)``; the request is read only when a passkey ceremony or a setup is involved.
    func preparing(
        _ context: FlowContext, toShow node: FlowNodeDefinition?, request record: FlowInteractionRecord
    ) async throws(StorageError) -> FlowContext {
        guard node?.passkeyCollector != nil || context.passkey != nil || node?.setsUpSecondFactor == true else {
            return context
        }
        return try await preparing(context, toShow: node, request: try record.decodedRequest())
    }

    /// `context` ready to show `node`: every time a node with a `PASSKEY` is shown it gets a new one-use challenge
    /// (so a refused answer is never checked against its challenge again), and any other node none; a second step's
    /// challenge allows only its user's passkeys. A node that sets up two-step sign-in gets its secret
    /// (``preparingSetup(_:toShow:request:)``).
    func preparing(
        _ context: FlowContext, toShow node: FlowNodeDefinition?, request: FlowRequest
    ) async throws(StorageError) -> FlowContext {
        var context = try await preparingSetup(context, toShow: node, request: request)
        context.passkey = nil
        guard let collector = node?.passkeyCollector, let mode = collector.passkeyMode else { return context }
        switch mode {
        case .register:
            guard let subject = request.signedInSubject, let user = try await services.store.user(id: subject) else {
                return context
            }
            context.passkey = try await services.passkeys.registration(for: user, collector: collector.key)
        case .authenticate:
            guard let step = context.secondStep, let subject = context.subject else {
                context.passkey = services.passkeys.authentication(collector: collector.key)
                return context
            }
            // A second step: the user's own passkeys, when it offers them.
            guard step.offered.contains(.passkey) else { return context }
            let allowed = try await services.store.passkeyCredentials(userID: subject)
            context.passkey = services.passkeys.authentication(allowing: allowed, collector: collector.key)
        }
        return context
    }
}

extension FlowNodeDefinition {
    /// The node's `PASSKEY`, if it has one (at most one, ``FlowDefinitionParser``).
    package var passkeyCollector: CollectorDefinition? {
        collectors.first { $0.type == .passkey }
    }

    /// Whether the node registers a passkey (which needs a signed-in user).
    package var registersPasskey: Bool {
        passkeyCollector?.passkeyMode == .register
    }
}
