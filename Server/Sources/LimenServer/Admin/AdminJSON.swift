import Foundation
import Hummingbird
import LimenWire
import NIOCore

/// A JSON request body of the admin API: an object whose members are those its `CodingKeys` name, each at most once.
package protocol AdminRequestBody: Decodable {
    /// The body's members, as named on the wire.
    associatedtype Members: CodingKey & CaseIterable
}

/// Reads the admin API's JSON request bodies: `application/json`, at most ``maximumBodySize``, decoded into an
/// ``AdminRequestBody`` whose problems become ``AdminError/invalidRequest(_:)`` naming the member at fault.
///
/// The JSON is read strictly first (`JSONValue(parsing:)`, the parser tokens are read with): a member named twice is
/// refused rather than left to whichever copy a decoder happens to keep, and a member the body does not declare is
/// refused rather than ignored, so a misspelt `post_logout_redirect_uris` never registers a client without them.
package enum AdminJSON {
    /// The largest body accepted.
    static let maximumBodySize = 64 * 1024

    /// The body decoded as `Body`.
    static func decode<Body: AdminRequestBody>(_: Body.Type, from request: Request) async throws(AdminError) -> Body {
        guard MediaType.matches(request.headers[.contentType], "application/json") else {
            throw .unsupportedMediaType
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBodySize) else { throw .bodyTooLarge }
        return try decode(Body.self, from: Data(buffer.readableBytesView))
    }

    /// `json` decoded as `Body`: a JSON object, no member twice, no member `Body` does not declare.
    static func decode<Body: AdminRequestBody>(_: Body.Type, from json: Data) throws(AdminError) -> Body {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: json)
        } catch .duplicateMemberName(let name) {
            throw .invalidRequest("\(name) is given more than once")
        } catch {
            throw .invalidRequest("the body is not valid JSON")
        }
        guard case .object(let members) = document else { throw .invalidRequest("the body must be a JSON object") }
        let declared = Set(Body.Members.allCases.map(\.stringValue))
        if let unknown = members.keys.filter({ !declared.contains($0) }).min() {
            throw .invalidRequest("\(unknown) is not a member of this request")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: json)
        } catch let error as DecodingError {
            throw .invalidRequest(describe(error))
        } catch {
            throw .invalidRequest("the body is not valid JSON")
        }
    }

    /// Why `json` is refused as `Body`, as the answer's `error_description` says it; `nil` when it is accepted.
    ///
    /// For the fuzz harness (Server/Fuzz/AdminJSON), which lives outside this module and cannot see ``AdminError``.
    package static func refusal<Body: AdminRequestBody>(of json: Data, as _: Body.Type) -> String? {
        do {
            _ = try decode(Body.self, from: json)
            return nil
        } catch {
            return error.errorDescription ?? error.code
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
