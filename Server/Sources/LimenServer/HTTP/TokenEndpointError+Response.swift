import HTTPTypes
import Hummingbird
import LimenServerCore

extension TokenEndpointError {
    /// The HTTP status.
    public var status: HTTPResponse.Status {
        switch self {
        case .invalidClient: .unauthorized
        case .unsupportedMediaType: .unsupportedMediaType
        case .bodyTooLarge: .contentTooLarge
        case .serverError: .internalServerError
        case .temporarilyUnavailable: .serviceUnavailable
        case .dpop(.replayCacheFull): .serviceUnavailable
        default: .badRequest
        }
    }

    /// The JSON error response, uncacheable, with `WWW-Authenticate: Basic` after a failed Basic authentication.
    var response: Response {
        var response = Responses.tokenJSON(
            Responses.errorObject(code, description: errorDescription ?? code),
            status: status
        )
        if case .invalidClient(basicChallenge: true) = self {
            response.headers[.wwwAuthenticate] = "Basic realm=\"limen\", charset=\"UTF-8\""
        }
        if case .dpop(.replayCacheFull) = self { response.headers[.retryAfter] = DPoPRefusal.retryAfter }
        if case .temporarilyUnavailable = self { response.headers[.retryAfter] = "1" }
        return response
    }
}
