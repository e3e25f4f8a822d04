import Foundation
import Hummingbird
import LimenOIDC

/// The parameters of an `application/x-www-form-urlencoded` request body, each at most once (RFC 6749 §3.2:
/// "Request and response parameters MUST NOT be included more than once").
struct FormParameters: Sendable {
    /// The largest body accepted.
    static let maximumBodySize = 64 * 1024

    private let values: [String: String]

    /// Reads and decodes the body of `request`; refuses other media types, oversized bodies and repeated parameters.
    static func read(from request: Request) async throws(TokenEndpointError) -> FormParameters {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard mediaType == "application/x-www-form-urlencoded" else { throw .unsupportedMediaType }
        var request = request
        guard let body = try? await request.collectBody(upTo: maximumBodySize) else { throw .bodyTooLarge }
        var values: [String: String] = [:]
        for (name, value) in FormEncoding.decode(String(buffer: body)) {
            guard values.updateValue(value, forKey: name) == nil else {
                throw .invalidRequest("\(name) is repeated")
            }
        }
        return FormParameters(values: values)
    }

    /// The value of `name`, or `nil` when absent or empty (RFC 6749 §3.1: empty parameters are omitted).
    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// The value of `name`, or `invalid_request` naming it.
    func required(_ name: String) throws(TokenEndpointError) -> String {
        guard let value = self[name] else { throw .invalidRequest("\(name) is missing") }
        return value
    }
}
