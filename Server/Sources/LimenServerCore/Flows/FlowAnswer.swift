import LimenServerStorage
import LimenWire

/// What a flow request answers: the node, its interaction and the status.
package struct FlowAnswer: Sendable, Equatable {
    /// `200` while the interaction goes on or succeeds; `4xx` with a failure node (or `429`/`503` with an error node
    /// when waiting helps).
    package var status: FlowAnswerStatus = .ok
    /// The interaction's ID, when there is one.
    package var interaction: String?
    /// The node.
    package var node: FlowNode
    /// Seconds to wait before trying again (`Retry-After`).
    package var retryAfter: Int?
    /// The flow whose node it is (not on the wire: the hosted pages pick the form's address by it).
    package var flow: String?
    /// Why ``AccountChangeGate`` refused the start's access token, when it did (answered with its bearer challenge).
    package var accountChangeRefusal: AccountChangeRefusal?

    /// A failure node with `status`.
    package static func failure(_ code: String, _ message: String, status: FlowAnswerStatus, interaction: String? = nil)
        -> FlowAnswer
    {
        FlowAnswer(status: status, interaction: interaction, node: .failure(code: code, message: message))
    }

    /// The body: `{"interaction": ID, "node": NODE}`, and `"retry_after": SECONDS` when waiting helps.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["node": node.json]
        if let interaction { members["interaction"] = .string(interaction) }
        if let retryAfter { members["retry_after"] = .number(Double(retryAfter)) }
        return .object(members)
    }
}

/// A refusal before the engine runs (a malformed body) is an answer too, carried as a `Result`'s failure.
extension FlowAnswer: Error {}

extension AccountChangeRefusal {
    /// A flow start's failure node: the refusal's code and message, `403` or `401` as its bearer challenge; the shell
    /// adds the challenge itself in `WWW-Authenticate`, so that an SDK answers a stale sign-in on a flow as on
    /// `/v1/me`.
    package var flowAnswer: FlowAnswer {
        var answer = FlowAnswer.failure(code, message, status: isForbidden ? .forbidden : .unauthenticated)
        answer.accountChangeRefusal = self
        return answer
    }
}
