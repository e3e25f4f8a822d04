import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenWire

extension ProfileError {
    /// The HTTP status that answers it.
    package var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest, .invalidField: .badRequest
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooLarge: .contentTooLarge
        case .preconditionFailed: .preconditionFailed
        case .conflict: .conflict
        case .notFound: .notFound
        case .serverError: .internalServerError
        }
    }

    /// The JSON error response (never cached); a 415 says what `PATCH` reads (`Accept-Patch`, RFC 5789 §3.1).
    var response: Response {
        var members: [String: JSONValue] = [
            "error": .string(wireCode), "error_description": .string(errorDescription ?? code),
        ]
        if case .invalidField(let field, _) = self { members["field"] = .string(field) }
        var response = Responses.json(.object(members), status: status, noStore: true)
        if case .unsupportedMediaType(let expected) = self, expected == ProfileBody.mergePatchType,
            let acceptPatch = HTTPField.Name("Accept-Patch")
        {
            response.headers[acceptPatch] = expected
        }
        return response
    }
}

extension ProfileError: HTTPResponseError {
    /// The JSON error (``response``): what Hummingbird answers when a profile route throws it.
    package func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
