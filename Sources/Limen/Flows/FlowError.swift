import Foundation
import LimenOIDC

/// Why a flow ended without a session: the cause a ``FailureNode`` carries.
public enum FlowError: Error, Sendable, Equatable {
    /// The server ended the interaction (`too_many_attempts`, `interaction_expired`, `consent_required`,
    /// `unknown_flow`, …) with a message for the person.
    case server(code: String, message: String)
    /// No answer from the server: offline, timed out, the connection dropped.
    case network(NetworkError)
    /// The answer could not be read.
    case invalidResponse(String)
    /// A node type this version of the SDK does not know (from a newer server).
    case unsupportedNode(String)
    /// This side could not finish: the configuration (no redirect URI), redeeming the code at `/token`, validating
    /// the ID token or storing the session.
    indirect case client(LimenError)
    /// The server refused the values a convenience sent (a wrong password, a password its policy refuses, a field an
    /// operator added): the error node's message and details.
    case refused(message: String, details: [FlowErrorDetail])
    /// The flow asks for a step a convenience cannot fill (an operator-defined one): run it with `startFlow`.
    case incomplete(step: String)
    /// The passkey authenticator did not answer (the person cancelled, no passkey for this server).
    case passkey(PasskeyError)
    /// The first step was right and the account has two-step sign-in on: answer `step` (a code of the authenticator
    /// app, a recovery code or a passkey) to finish the sign-in.
    case secondStepRequired(SecondStep)

    /// A stable code: the server's own code, or the SDK's (`network.timeout`, `flow.invalid_response`, …).
    public var code: String {
        switch self {
        case .server(let code, _): code
        case .network(let error): error.code
        case .invalidResponse: "flow.invalid_response"
        case .unsupportedNode: "flow.unsupported_node"
        case .client(let error): error.code
        case .refused(_, let details): details.first.map { "flow.refused.\($0.code)" } ?? "flow.refused"
        case .incomplete: "flow.incomplete"
        case .passkey(let error): error.code
        case .secondStepRequired: "flow.second_step_required"
        }
    }

    /// Wraps what failed on this side: a network failure as ``network(_:)``, anything else as ``client(_:)``.
    init(_ error: LimenError) {
        switch error {
        case .network(let network): self = .network(network)
        default: self = .client(error)
        }
    }

    /// Whether starting the flow again later, without the person changing anything, may succeed.
    public var isRetryable: Bool {
        switch self {
        case .network(let error): error.isRetryable
        case .client(let error): error.isRetryable
        case .server(let code, _): ["interaction_expired", "too_many_attempts", "server_error"].contains(code)
        case .invalidResponse, .unsupportedNode, .refused, .incomplete, .passkey, .secondStepRequired: false
        }
    }
}

extension FlowError: LocalizedError {
    /// A sentence for the person or the log.
    public var errorDescription: String? {
        switch self {
        case .server(_, let message): message
        case .network(let error):
            "The server could not be reached (\(error.code)): \(error.errorDescription ?? error.code)"
        case .invalidResponse(let reason): "The server's answer could not be read: \(reason)."
        case .unsupportedNode(let type): "This app cannot show a step of type \(type); update it."
        case .client(let error): error.localizedDescription
        case .refused(let message, let details):
            ([message] + details.map(\.message)).filter { !$0.isEmpty }.joined(separator: " ")
        case .incomplete(let step): "The flow needs a further step (\(step)) that this call cannot fill."
        case .passkey(.cancelled): "The passkey request was cancelled."
        case .passkey(.noCredential): "There is no passkey for this account on this device."
        case .passkey(.failed(let reason)): "The passkey could not be used: \(reason)."
        case .secondStepRequired: "Confirm it is you with your second step."
        }
    }
}
