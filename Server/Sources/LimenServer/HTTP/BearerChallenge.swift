import Foundation
import HTTPTypes
import Hummingbird
import LimenServerStorage

/// An RFC 6750 §3 refusal: a status and a `WWW-Authenticate: Bearer` challenge.
enum BearerChallenge: Error, Sendable, Equatable {
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
    /// The token is one this provider honours, but ``AccountChangeGate`` refused to let it change the account: a token
    /// minted for an API (401 `invalid_token`), or a third-party app's (403 `insufficient_scope`).
    case accountChangeRefused(AccountChangeRefusal)

    /// The token of an `Authorization: Bearer` header (RFC 6750 §2.1), `nil` when there is none.
    static func token(in request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The response carrying the challenge.
    var response: Response {
        var challenge = "Bearer realm=\"limen\""
        let status: HTTPResponse.Status
        switch self {
        case .missingToken:
            status = .unauthorized
        case .invalidRequest(let description):
            status = .badRequest
            challenge += ", error=\"invalid_request\", error_description=\"\(description)\""
        case .invalidToken:
            status = .unauthorized
            challenge += ", error=\"invalid_token\", error_description=\"the access token is not valid\""
        case .insufficientScope(let scope):
            status = .forbidden
            challenge += ", error=\"insufficient_scope\", scope=\"\(scope)\""
        case .insufficientUserAuthentication(let maxAge):
            status = .unauthorized
            challenge +=
                ", error=\"insufficient_user_authentication\", "
                + "error_description=\"a more recent authentication is required\", max_age=\(maxAge)"
        case .accountChangeRefused(let refusal):
            status = refusal == .thirdPartyClient || refusal == .insufficientScope ? .forbidden : .unauthorized
            challenge += ", error=\"\(refusal.code)\", error_description=\"\(refusal.message)\""
        }
        return Response(status: status, headers: [.wwwAuthenticate: challenge, .cacheControl: "no-store"])
    }
}
