/// How ``AccountChangeGate``'s refusals are answered on the account routes: as RFC 6750 bearer challenges.
extension AccountChangeRefusal {
    /// The bearer challenge that refuses the request (RFC 9470's `insufficient_user_authentication` for a stale
    /// sign-in, with its `max_age`).
    package var challenge: BearerChallenge {
        switch self {
        case .missingToken: .missingToken
        case .invalidToken: .invalidToken
        case .insufficientScope: .insufficientScope("openid")
        case .staleAuthentication(let maxAge): .insufficientUserAuthentication(maxAge: maxAge)
        case .wrongScheme: .wrongScheme
        case .dpop(let refusal): .dpop(refusal)
        case .notIssuedForLimen, .thirdPartyClient, .clientNotAuthenticated: .accountChangeRefused(self)
        }
    }
}
