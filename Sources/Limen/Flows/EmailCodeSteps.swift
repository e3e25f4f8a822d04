/// The steps of this client's interactions that wait for a code sent by email (a node with a `code` field), by
/// interaction, so that a link opened in the app (``AuthClient/handle(url:)``) or ``AuthClient/signIn(email:code:)``
/// continues the same step. Held in memory only: a link from another launch of the app names no step here.
actor EmailCodeSteps {
    private var steps: [String: ContinueNode] = [:]
    private var requested: [String: String] = [:]

    /// Keeps the step of `node` when it asks for a code; otherwise forgets the interaction's earlier step (it moved
    /// on, or ended).
    func note(_ node: Node, interaction: String) {
        let step: ContinueNode? =
            switch node {
            case .continue(let step): step
            case .error(let error): error.node
            case .failure, .success: nil
            }
        steps[interaction] = step?.codeField != nil ? step : nil
    }

    /// The step of `interaction` that waits for a code, if any.
    func step(interaction: String) -> ContinueNode? {
        steps[interaction]
    }

    /// Remembers that a convenience asked flow `flow` to send a code to `email` in `interaction`.
    func requested(flow: String, email: String, interaction: String) {
        requested[Self.key(flow, email)] = interaction
    }

    /// The step waiting for the code a convenience asked flow `flow` to send to `email`.
    func step(flow: String, email: String) -> ContinueNode? {
        requested[Self.key(flow, email)].flatMap { steps[$0] }
    }

    private static func key(_ flow: String, _ email: String) -> String {
        flow + "\u{0}" + email.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

extension ContinueNode {
    /// The field a code sent by email goes in (`code`), when the step has one.
    var codeField: TextCollector? {
        collectors.first { $0.key == "code" } as? TextCollector
    }
}
