import Foundation
import Hummingbird

/// The parameters of an `application/x-www-form-urlencoded` request body (read by ``FormBody``), each at most once
/// (RFC 6749 §3.2: "Request and response parameters MUST NOT be included more than once").
struct FormParameters: Sendable {
    private let values: [String: String]

    /// Reads and decodes the body of `request`; refuses other media types, oversized bodies and repeated parameters.
    static func read(from request: Request) async throws(TokenEndpointError) -> FormParameters {
        let pairs: [(name: String, value: String)]
        switch await FormBody.pairs(of: request) {
        case .success(let read): pairs = read
        case .failure(.unsupportedMediaType): throw .unsupportedMediaType
        case .failure(.tooLarge): throw .bodyTooLarge
        }
        var values: [String: String] = [:]
        for (name, value) in pairs {
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
