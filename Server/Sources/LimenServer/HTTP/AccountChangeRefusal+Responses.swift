import Hummingbird
import LimenServerCore

/// How ``AccountChangeGate``'s refusals are answered: as RFC 6750 bearer challenges on the account routes, and as
/// failure nodes (with the same challenge) on a flow start.
extension AccountChangeRefusal {
    /// The bearer challenge that refuses the request (RFC 9470's `insufficient_user_authentication` for a stale
    /// sign-in, with its `max_age`).
    var challenge: BearerChallenge {
        switch self {
        case .missingToken: .missingToken
        case .invalidToken: .invalidToken
        case .insufficientScope: .insufficientScope("openid")
        case .staleAuthentication(let maxAge): .insufficientUserAuthentication(maxAge: maxAge)
        case .notIssuedForLimen, .thirdPartyClient, .clientNotAuthenticated: .accountChangeRefused(self)
        }
    }

    /// A flow start's failure node: the refusal's code and message and the challenge's status; ``FlowRoutes`` adds
    /// the challenge itself in `WWW-Authenticate`, so that an SDK answers a stale sign-in on a flow as on `/v1/me`.
    var flowAnswer: FlowAnswer {
        // Every challenge of a refusal is a 401 or a 403.
        let status: FlowAnswerStatus = challenge.response.status == .forbidden ? .forbidden : .unauthenticated
        var answer = FlowAnswer.failure(code, message, status: status)
        answer.accountChangeRefusal = self
        return answer
    }
}
