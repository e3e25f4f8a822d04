/// Why ``AccountChangeGate`` refused to let a request change an account. Each case has a stable `code`, the `error`
/// a flow's failure node or a bearer challenge carries.
package enum AccountChangeRefusal: Error, Sendable, Equatable {
    /// No bearer token was sent.
    case missingToken
    /// The token is malformed, expired, revoked, not this provider's, or its user is gone.
    case invalidToken
    /// The token does not grant `openid`.
    case insufficientScope
    /// The token was minted for another audience (an API named by RFC 8707's `resource`), not for Limen alone.
    case notIssuedForLimen
    /// The token's client is a third-party app: only the provider's own apps change accounts.
    case thirdPartyClient
    /// A confidential client's token, sent without the client's secret.
    case clientNotAuthenticated
    /// The sign-in behind the token is older than `maxAge` seconds: sign in again (RFC 9470).
    case staleAuthentication(maxAge: Int)
    /// A DPoP-bound token sent as a bearer token, or an unbound one with the `DPoP` scheme (RFC 9449 §7.1).
    case wrongScheme
    /// The request's DPoP proof was refused, or the server asks for its nonce (RFC 9449 §7.1, §9).
    case dpop(DPoPRefusal)

    /// The stable error code.
    package var code: String {
        switch self {
        case .missingToken, .invalidToken, .notIssuedForLimen, .wrongScheme: "invalid_token"
        case .insufficientScope, .thirdPartyClient: "insufficient_scope"
        case .clientNotAuthenticated: "invalid_client"
        case .staleAuthentication: "insufficient_user_authentication"
        case .dpop(let refusal): refusal.code
        }
    }

    /// A sentence for the developer or the person.
    package var message: String {
        switch self {
        case .missingToken: "An access token is required: sign in first."
        case .invalidToken: "The access token is not valid: sign in again."
        case .insufficientScope: "The access token does not grant openid."
        case .notIssuedForLimen:
            "The access token was issued for another audience (an API): only a token issued for this provider alone "
                + "may change an account."
        case .thirdPartyClient: "Only the provider's own (first-party) apps may change an account."
        case .clientNotAuthenticated:
            "A confidential client must send its client_secret with the access token to change an account."
        case .staleAuthentication(let maxAge):
            "Sign in again: changing an account needs a sign-in at most \(maxAge) seconds old."
        case .wrongScheme: "Send a DPoP-bound access token with the DPoP scheme and a proof, and only such a token."
        case .dpop(let refusal): refusal.message
        }
    }

    /// Whether the refusal is a `403` (the token is good but may not do this: a third-party app's, or without
    /// `openid`) rather than a `401` (sign in again).
    package var isForbidden: Bool { self == .thirdPartyClient || self == .insufficientScope }
}
