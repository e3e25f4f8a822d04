import Foundation
import Hummingbird
import NIOCore

/// Reads the admin API's JSON request bodies: `application/json`, at most ``maximumBodySize``, decoded into a
/// `Decodable` whose problems become ``AdminError/invalidRequest(_:)`` naming the member at fault.
enum AdminJSON {
    /// The largest body accepted.
    static let maximumBodySize = 64 * 1024

    /// The body decoded as `Body`.
    static func decode<Body: Decodable>(_: Body.Type, from request: Request) async throws(AdminError) -> Body {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/json") else { throw .unsupportedMediaType }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBodySize) else { throw .bodyTooLarge }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .invalidRequest(describe(error))
        } catch {
            throw .invalidRequest("the body is not valid JSON")
        }
    }

    /// What is wrong with the body, naming the member (never echoing its value, which may be a password).
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map(String.init) ?? $0.stringValue }
                .joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath, key)) is required"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) must not be null"
        case .typeMismatch(let type, let context):
            return context.codingPath.isEmpty
                ? "the body must be a JSON object" : "\(path(context.codingPath)) must be of type \(type)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default: return "the body is not valid JSON"
        }
    }
}
