/// The second step of a two-step sign-in: after the first step identified a user whose two-step sign-in is on,
/// `complete` moves the interaction to its flow's ``nodeID`` node, which shows the ways ``offered`` and completes once
/// one of them ``answered``.
package struct SecondStep: Sendable, Equatable, Codable {
    /// The node every flow that completes has for it (the built-in one unless the flow defines its own).
    package static let nodeID = "mfa"

    /// The ways the user can answer it.
    package var offered: [SecondFactorMethod]
    /// The way that answered it, once one did.
    package var answered: SecondFactorMethod?

    /// A step offering `methods`, in their declared order.
    package init(offering methods: Set<SecondFactorMethod>) {
        offered = SecondFactorMethod.allCases.filter(methods.contains)
    }
}

extension FlowAction {
    /// The way of answering a second step this action checks, if it checks one.
    var secondFactorMethod: SecondFactorMethod? {
        switch self {
        case .checkTOTP: .totp
        case .checkPasskey: .passkey
        case .checkRecoveryCode: .recoveryCode
        default: nil
        }
    }
}

extension FlowNodeDefinition {
    /// The node as a user at `step` sees it: with a second step, the buttons checking a way not offered, and the
    /// fields they read, left out.
    func offering(_ step: SecondStep?) -> FlowNodeDefinition {
        guard let step else { return self }
        func withheldActions(_ collector: CollectorDefinition) -> [FlowAction] {
            guard case .run(let actions, _) = collector.behaviour,
                actions.contains(where: { $0.secondFactorMethod.map { !step.offered.contains($0) } ?? false })
            else { return [] }
            return actions
        }
        let withheld = collectors.filter { !withheldActions($0).isEmpty }
        // A withheld passkey button takes its node's `PASSKEY` with it.
        let passkey =
            withheld.contains { withheldActions($0).contains(where: \.isPasskeyCeremony) } ? passkeyCollector : nil
        let withheldKeys = Set(
            withheld.map(\.key) + withheld.flatMap { withheldActions($0).flatMap(\.inputs) }
                + [passkey?.key].compactMap { $0 })
        var node = self
        node.collectors = collectors.filter { !withheldKeys.contains($0.key) }
        return node
    }
}
