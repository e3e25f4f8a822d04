import Foundation
import HTTPTypes
import Hummingbird
import LimenWire
import NIOCore

/// Reads `application/x-www-form-urlencoded` request bodies, up to ``maximumSize``.
package enum FormBody {
    /// The media type of a form body.
    package static let mediaType = "application/x-www-form-urlencoded"

    /// The largest form body accepted.
    static let maximumSize = 64 * 1024

    /// Why a body was not read.
    enum Failure: Error, Sendable, Equatable {
        /// Not a form body (`415`).
        case unsupportedMediaType
        /// Larger than ``maximumSize`` (`413`).
        case tooLarge

        /// The HTTP status that answers it.
        var status: HTTPResponse.Status {
            switch self {
            case .unsupportedMediaType: .unsupportedMediaType
            case .tooLarge: .contentTooLarge
            }
        }

        /// What went wrong, for an error page or JSON body.
        var description: String {
            switch self {
            case .unsupportedMediaType: "the body must be application/x-www-form-urlencoded"
            case .tooLarge: "the request body is too large"
            }
        }
    }

    /// The body's fields, in order.
    static func pairs(of request: Request) async -> Result<[(name: String, value: String)], Failure> {
        guard isForm(request) else { return .failure(.unsupportedMediaType) }
        var request = request
        guard let body = try? await request.collectBody(upTo: maximumSize) else { return .failure(.tooLarge) }
        return .success(decode(String(buffer: body)))
    }

    /// Whether the request's `Content-Type` is the form media type (parameters such as `charset` allowed).
    static func isForm(_ request: Request) -> Bool {
        MediaType.matches(request.headers[.contentType], mediaType)
    }

    /// The fields of a form body, as ``FormEncoding/decode(_:)`` reads them.
    package static func decode(_ body: String) -> [(name: String, value: String)] {
        FormEncoding.decode(body).map { (name: $0.0, value: $0.1) }
    }

    /// The body's fields by name; a field sent more than once counts as absent.
    static func fields(of request: Request) async -> Result<FormFields, Failure> {
        await pairs(of: request).map(FormFields.init)
    }
}

/// The fields of a form (or a query string) by name.
package struct FormFields: Sendable {
    private let values: [String: [String]]

    /// Groups `pairs` by name.
    package init(_ pairs: [(name: String, value: String)]) {
        var values: [String: [String]] = [:]
        for (name, value) in pairs { values[name, default: []].append(value) }
        self.values = values
    }

    /// The fields of a URL query.
    init(query: String?) {
        self.init(FormEncoding.decode(query ?? "").map { (name: $0.0, value: $0.1) })
    }

    /// The value of a field sent exactly once.
    package subscript(_ name: String) -> String? {
        guard let list = values[name], list.count == 1 else { return nil }
        return list[0]
    }
}
