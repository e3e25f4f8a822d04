import Foundation
import LimenOIDC

/// The interaction a node belongs to: the flow, the server's interaction ID and the authorization request whose
/// PKCE verifier, `state` and `nonce` redeem its code.
struct FlowInteraction: Sendable {
    /// The flows of the client that started it.
    let flows: FlowClient
    /// The server's opaque interaction ID (empty before the start answers).
    let id: String
    /// The request the flow was started with; its redirect URI is where an ``IdpCollector``'s web session returns.
    let request: AuthorizationRequest
    /// The `max_age` the ID token's `auth_time` is checked against.
    let maxAge: TimeInterval?
    /// How its sign-in is told in events (``SignInMethod/init(flow:)``).
    let method: SignInMethod

    /// Sends `node`'s values with the button `action` pressed.
    func submit(_ node: ContinueNode, action: String) async -> Node {
        await send(submission(step: node.id, action: action, values: node.values), submitted: node)
    }

    /// The request that sends `values` to the step with ID `step`, with the button `action` pressed.
    func submission(step: String, action: String, values: [String: JSONValue]) -> HTTPRequest {
        let body = JSONValue.object([
            "node": .string(step), "action": .string(action), "values": .object(values),
            "client_id": .string(flows.configuration.clientID),
        ])
        let url = flows.configuration.issuer.appendingPathComponent("flows/interactions").appendingPathComponent(id)
        return HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: Data(body.serialized()))
    }

    /// Sends a start or a submission and turns the answer into a node; a success is redeemed.
    func send(_ request: HTTPRequest, submitted: ContinueNode?) async -> Node {
        await node(reading: await answer(to: request), submitted: submitted)
    }

    /// The node `response` (to a start or a submission) describes; a success is redeemed.
    func node(answering response: HTTPResponse, submitted: ContinueNode?) async -> Node {
        await node(reading: Self.document(of: response), submitted: submitted)
    }

    /// The node of an answer read as `document`, or the failure why none could be read.
    private func node(reading document: Result<FlowDocument, FlowError>, submitted: ContinueNode?) async -> Node {
        switch document {
        case .success(let document): await node(of: document, submitted: submitted)
        case .failure(let cause): .failure(FailureNode(cause: cause))
        }
    }

    /// Sends a start or a submission and reads the answer, or says why there is none to read.
    func answer(to request: HTTPRequest) async -> Result<FlowDocument, FlowError> {
        let response: HTTPResponse
        do {
            response = try await flows.configuration.transport.send(request)
        } catch {
            // A refused pin is the SDK's `pinningFailed`, as on every other path.
            return .failure(FlowError(LimenError(error)))
        }
        return Self.document(of: response)
    }

    /// The flow document of `response`, or says why it has none.
    static func document(of response: HTTPResponse) -> Result<FlowDocument, FlowError> {
        if let refusal = Self.accountChangeRefusal(of: response) { return .failure(.client(.account(refusal))) }
        do {
            return .success(try FlowDocument(parsing: response.body))
        } catch {
            if response.status == 429 { return .failure(.network(.rateLimited(retryAfter: response.retryAfter()))) }
            if response.status >= 500 { return .failure(.network(.httpStatus(response.status))) }
            switch error {
            case .invalid(let reason): return .failure(.invalidResponse(reason))
            }
        }
    }

    /// Why the provider refused a start carrying the signed-in user's token, when it was its account-change rule: a
    /// sign-in too old (RFC 9470's challenge: sign in again), or an app that may not change the account.
    static func accountChangeRefusal(of response: HTTPResponse) -> AccountError? {
        guard let challenge = BearerChallenge(response.header("WWW-Authenticate")),
            ["insufficient_user_authentication", "insufficient_scope", "invalid_client"].contains(challenge.error)
        else { return nil }
        return AccountError(response: response, challenge: challenge)
    }

    /// The node an answer describes, in the interaction it names; a success is redeemed, and `submitted` (the step
    /// as sent) lends its values to an error node's fields.
    func node(of document: FlowDocument, submitted: ContinueNode?) async -> Node {
        let here = named(by: document)
        let node = await node(of: document.node, in: here, submitted: submitted, retryAfter: document.retryAfter)
        await flows.emailCodeSteps.note(node, interaction: here.id)
        return node
    }

    /// This interaction under the ID `document` gives (the start's answer gives the first).
    func named(by document: FlowDocument) -> FlowInteraction {
        FlowInteraction(flows: flows, id: document.interaction ?? id, request: request, maxAge: maxAge, method: method)
    }

    /// The node `document` describes in interaction `here`, with the answer's `retryAfter`; a success is redeemed.
    private func node(
        of document: FlowNodeDocument,
        in here: FlowInteraction,
        submitted: ContinueNode?,
        retryAfter: Int?
    ) async -> Node {
        switch document {
        case .continue(let step):
            return .continue(ContinueNode(step, interaction: here))
        case .error(let step, let message, let details):
            let node = ContinueNode(step, interaction: here)
            if let submitted { node.keepValues(of: submitted) }
            return .error(
                ErrorNode(message: message, details: details, node: node, retryAfter: retryAfter.map(TimeInterval.init))
            )
        case .failure(let code, let message):
            return .failure(FailureNode(cause: .server(code: code, message: message)))
        case .unknown(let type):
            return .failure(FailureNode(cause: .unsupportedNode(type)))
        case .redirect:
            // Only the press of an IDP collector, which reads the answer itself, is answered with a redirect.
            return .failure(FailureNode(cause: .invalidResponse("unexpected redirect node")))
        case .registered:
            return flows.session.registeredForSignedInUser()
        case .success(let code, let state, let issuer, let newUser):
            return await flows.session.redeemFlowCode(
                code, state: state, issuer: issuer, newUser: newUser, interaction: here)
        }
    }
}
