/// An RFC 6750 §3 refusal of a bearer token; the shell answers it with a status and a `WWW-Authenticate: Bearer`
/// challenge.
package enum BearerChallenge: Error, Sendable, Equatable {
    /// No token was sent: a challenge without an error code (§3.1).
    case missingToken
    /// The request is malformed (400).
    case invalidRequest(String)
    /// The token is expired, revoked, malformed or not ours (401).
    case invalidToken
    /// The token lacks the scope the resource needs (403): `openid` for `/userinfo`, `profile` for `/v1/me/data`.
    case insufficientScope(String)
    /// The token's sign-in is older than the resource allows (401, RFC 9470 §3): sign in again, at most `maxAge`
    /// seconds before the request.
    case insufficientUserAuthentication(maxAge: Int)
    /// The token is bound to a DPoP key (`cnf.jkt`) but came with the `Bearer` scheme, or is unbound and came with the
    /// `DPoP` scheme (401 with a `DPoP` challenge, error `invalid_token`; RFC 9449 §7.1, §7.2).
    case wrongScheme
    /// The request's DPoP proof was refused (RFC 9449 §7.1, §9): 401 with a `DPoP` challenge, `use_dpop_nonce` with a
    /// fresh `DPoP-Nonce`, or 503 when this node's replay cache is full.
    case dpop(DPoPRefusal)
    /// The token is one this provider honours, but ``AccountChangeGate`` refused to let it change the account: a token
    /// minted for an API (401 `invalid_token`), or a third-party app's (403 `insufficient_scope`).
    case accountChangeRefused(AccountChangeRefusal)
}

extension BearerChallenge {
    /// Whether it is about the token's DPoP binding or proof (answered with a `DPoP` challenge), not the token itself.
    package var isAboutProof: Bool {
        switch self {
        case .wrongScheme, .dpop: true
        default: false
        }
    }
}
