extension FlowDefinition {
    /// Whether some button of the flow runs `action`.
    package func runs(_ action: FlowAction) -> Bool {
        nodes.contains { $0.sets(password: action) }
    }

    /// Whether the flow may end in a code: a button runs `complete`, or an `IDP` button signs in upstream (which then
    /// completes).
    package var completes: Bool {
        runs(.complete)
            || nodes.contains { node in
                node.collectors.contains { if case .federate = $0.behaviour { true } else { false } }
            }
    }

    /// Whether some button of the flow creates an account (or sends a code to make one, or makes an anonymous one).
    package var createsAccounts: Bool {
        nodes.contains {
            $0.sets(password: .createAccount) || $0.sets(password: .sendSignUpCode)
                || $0.sets(password: .createAnonymousAccount)
        }
    }
}

extension FlowAction {
    /// Why this action cannot run at `position` of `actions` on `node`, or `nil` when it can: a passkey action needs
    /// the node's `PASSKEY` to be of its mode, and `register_passkey`, which ends the interaction, comes last.
    func passkeyMisuse(in node: FlowNodeDefinition, position: Int, of actions: [FlowAction]) -> String? {
        let mode: PasskeyMode
        switch self {
        case .checkPasskey: mode = .authenticate
        case .registerPasskey: mode = .register
        default: return nil
        }
        guard node.passkeyCollector?.passkeyMode == mode else {
            return "\(rawValue) needs a PASSKEY with mode \(mode.rawValue)"
        }
        guard self == .checkPasskey || position == actions.count - 1 else {
            return "register_passkey ends the interaction: it comes last"
        }
        return nil
    }
}

extension FlowNodeDefinition {
    /// The policy a new password must meet on this node: the server's baseline and the `PASSWORD` collector's own,
    /// when a button of the node creates an account or sets a password; `nil` when the node only checks one.
    package var passwordPolicy: PasswordPolicy? {
        guard sets(password: .createAccount) || sets(password: .setPassword) else { return nil }
        let declared = collectors.first { $0.type == .password }?.policy ?? .standard
        return PasswordPolicy.standard.including(declared)
    }

    /// Whether a button of the node runs `action`.
    package func sets(password action: FlowAction) -> Bool {
        collectors.contains {
            if case .run(let actions, _) = $0.behaviour { actions.contains(action) } else { false }
        }
    }
}
