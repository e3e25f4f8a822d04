import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore

extension BearerChallenge {
    /// The token of an `Authorization: Bearer` header (RFC 6750 §2.1), `nil` when there is none.
    static func token(in request: Request) -> String? {
        PresentedAccessToken(in: request).flatMap { $0.scheme == .bearer ? $0.token : nil }
    }

    /// A `DPoP` challenge (RFC 9449 §7.1) naming the algorithms proofs may use, with `error` and its description.
    private static func dpopChallenge(error: String, description: String) -> String {
        "DPoP algs=\"\(DPoPProofChecker.algorithmNames.joined(separator: " "))\", error=\"\(error)\", "
            + "error_description=\"\(description)\""
    }

    /// The response carrying the challenge.
    var response: Response {
        var challenge = "Bearer realm=\"limen\""
        let status: HTTPResponse.Status
        switch self {
        case .wrongScheme:
            status = .unauthorized
            challenge = Self.dpopChallenge(
                error: "invalid_token",
                description: "send a DPoP-bound token with the DPoP scheme and a proof, and only such a token")
        case .dpop(let refusal):
            status = refusal == .replayCacheFull ? .serviceUnavailable : .unauthorized
            challenge = Self.dpopChallenge(error: refusal.code, description: refusal.message)
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
        var response = Response(status: status, headers: [.wwwAuthenticate: challenge, .cacheControl: "no-store"])
        if self == .dpop(.replayCacheFull) { response.headers[.retryAfter] = DPoPRefusal.retryAfter }
        return response
    }
}
