import Foundation
import LimenWire

/// A JSON request body of the admin API: an object whose members are those its `CodingKeys` name, each at most once.
package protocol AdminRequestBody: Decodable {
    /// The body's members, as named on the wire.
    associatedtype Members: CodingKey & CaseIterable
}

/// Why an admin API body is refused: what is wrong, naming the member at fault and never echoing its value (which may
/// be a password). The server answers it as `invalid_request`.
package struct AdminJSONRefusal: Error, Sendable, Equatable {
    /// What is wrong, as the answer's `error_description` says it.
    package let description: String
}

/// Reads the admin API's JSON request bodies strictly, into an ``AdminRequestBody``.
///
/// The JSON is read strictly first (`JSONValue(parsing:)`, the parser tokens are read with): a member named twice is
/// refused rather than left to whichever copy a decoder happens to keep, and a member the body does not declare is
/// refused rather than ignored, so a misspelt `post_logout_redirect_uris` never registers a client without them.
package enum AdminJSON {
    /// The media type of an admin API body.
    package static let mediaType = "application/json"

    /// The largest body read, in bytes.
    package static let maximumBodySize = 64 * 1024

    /// `json` decoded as `Body`: a JSON object, no member twice, no member `Body` does not declare.
    package static func decode<Body: AdminRequestBody>(
        _: Body.Type,
        from json: Data
    ) throws(AdminJSONRefusal) -> Body {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: json)
        } catch .duplicateMemberName(let name) {
            throw refusal("\(name) is given more than once")
        } catch {
            throw refusal("the body is not valid JSON")
        }
        guard case .object(let members) = document else { throw refusal("the body must be a JSON object") }
        let declared = Set(Body.Members.allCases.map(\.stringValue))
        if let unknown = members.keys.filter({ !declared.contains($0) }).min() {
            throw refusal("\(unknown) is not a member of this request")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: json)
        } catch let error as DecodingError {
            throw refusal(describe(error))
        } catch {
            throw refusal("the body is not valid JSON")
        }
    }

    /// Why `json` is refused as `Body`; `nil` when it is accepted.
    package static func refusal<Body: AdminRequestBody>(of json: Data, as _: Body.Type) -> String? {
        do {
            _ = try decode(Body.self, from: json)
            return nil
        } catch {
            return error.description
        }
    }

    private static func refusal(_ description: String) -> AdminJSONRefusal {
        AdminJSONRefusal(description: description)
    }

    /// What is wrong with the body, naming the member (never echoing its value, which may be a password).
    private static func describe(_ error: DecodingError) -> String {
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
