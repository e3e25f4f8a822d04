import HTTPTypes
import LimenServerCore

extension FlowAnswerStatus {
    /// The HTTP status that answers it.
    var http: HTTPResponse.Status {
        switch self {
        case .ok: .ok
        case .invalid: .badRequest
        case .unauthenticated: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .gone: .gone
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooManyRequests: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .serverError: .internalServerError
        }
    }
}
