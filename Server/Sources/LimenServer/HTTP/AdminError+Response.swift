import HTTPTypes
import Hummingbird
import LimenServerCore

extension AdminError {
    /// The HTTP status that answers it.
    package var status: HTTPResponse.Status {
        switch self {
        case .client(.alreadyExists, _), .account(.emailTaken), .conflict: .conflict
        case .invalidRequest, .client, .account(.invalidEmail), .account(.weakPassword), .account(.fieldTooLong):
            .badRequest
        case .account(.busy), .unavailable: .serviceUnavailable
        case .unsupportedMediaType: .unsupportedMediaType
        case .bodyTooLarge: .contentTooLarge
        case .notFound: .notFound
        case .account, .serverError: .internalServerError
        }
    }

    /// The JSON error response (never cached), with `Retry-After` when waiting helps.
    var response: Response {
        var response = Responses.jsonError(wireCode, description: errorDescription ?? code, status: status)
        if case .account(let error) = self, let seconds = error.retryAfter {
            response.headers[.retryAfter] = "\(seconds)"
        }
        if case .unavailable = self { response.headers[.retryAfter] = "1" }
        return response
    }
}
