import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore

extension BearerChallenge {
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
            status = refusal.isForbidden ? .forbidden : .unauthorized
            challenge += ", error=\"\(refusal.code)\", error_description=\"\(refusal.message)\""
        }
        return Response(status: status, headers: [.wwwAuthenticate: challenge, .cacheControl: "no-store"])
    }
}
