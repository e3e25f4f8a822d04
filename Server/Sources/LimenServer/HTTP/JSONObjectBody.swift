import Foundation
import Hummingbird
import LimenServerWire
import LimenWire

/// A JSON request body read strictly: `application/json`, at most a given size, one object naming no member twice;
/// and its string members, each of its type and within its length. Each route turns a ``Refusal`` into its own error.
struct JSONObjectBody {
    /// Why a body was refused.
    enum Refusal: Error, Equatable {
        /// The body is not `application/json`.
        case unsupportedMediaType
        /// The body is larger than allowed.
        case tooLarge
        /// The body, or a member of it, is not what the route reads; the sentence says why.
        case invalid(String)
    }

    /// The members of the body.
    let members: [String: JSONValue]

    /// Reads the body of `request`, at most `maximumSize` bytes.
    static func read(from request: Request, maximumSize: Int) async throws(Refusal) -> JSONObjectBody {
        guard MediaType.matches(request.headers[.contentType], "application/json") else {
            throw .unsupportedMediaType
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumSize) else { throw .tooLarge }
        guard let document = try? JSONValue(parsing: Data(buffer.readableBytesView)) else {
            throw .invalid("the body is not valid JSON (or names a member twice)")
        }
        guard case .object(let members) = document else { throw .invalid("the body must be a JSON object") }
        return JSONObjectBody(members: members)
    }

    /// The string member `name` (`null` counts as absent), at most `maximumLength` bytes, non-empty when `required`.
    func string(_ name: String, maximumLength: Int, required: Bool) throws(Refusal) -> String? {
        guard let value = members[name], value != .null else {
            if required { throw .invalid("\(name) is required") }
            return nil
        }
        guard let text = value.stringValue else { throw .invalid("\(name) must be a string") }
        guard text.utf8.count <= maximumLength else { throw .invalid("\(name) is too long") }
        if required && text.isEmpty { throw .invalid("\(name) is required") }
        return text
    }
}

extension JSONObjectBody.Refusal {
    /// The `invalid_request` answer: `415`, `413` or `400` with the reason.
    var response: Response {
        switch self {
        case .unsupportedMediaType:
            Responses.jsonError(
                "invalid_request", description: "the body must be application/json", status: .unsupportedMediaType)
        case .tooLarge:
            Responses.jsonError("invalid_request", description: "the body is too large", status: .contentTooLarge)
        case .invalid(let reason): Responses.jsonError("invalid_request", description: reason, status: .badRequest)
        }
    }
}
