import Foundation
import LimenWire

/// A JSON request body of the admin API: an object whose members are those its `CodingKeys` name, each at most once.
package protocol AdminRequestBody: Decodable {
    /// The body's members, as named on the wire.
    associatedtype Members: CodingKey & CaseIterable

    /// The members whose value is an object read as strictly as the body itself, by wire name, with the body each is.
    static var nestedBodies: [String: any AdminRequestBody.Type] { get }
}

extension AdminRequestBody {
    /// No member is a nested body.
    package static var nestedBodies: [String: any AdminRequestBody.Type] { [:] }

    /// The members' wire names.
    static var memberNames: Set<String> { Set(Members.allCases.map(\.stringValue)) }
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
/// refused rather than ignored, so a misspelt `post_logout_redirect_uris` never registers a client without them. The
/// members of a nested body (``AdminRequestBody/nestedBodies``) are held to the same rule, named by their path
/// (`branding.colour`).
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
        if let unknown = undeclaredMember(of: members, in: Body.self) {
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

    /// The first member of `members`, or of a nested body among them, that `body` does not declare, by its path.
    private static func undeclaredMember(
        of members: [String: JSONValue],
        in body: any AdminRequestBody.Type,
        path: String = ""
    ) -> String? {
        let declared = body.memberNames
        if let unknown = members.keys.filter({ !declared.contains($0) }).min() { return path + unknown }
        for (name, nested) in body.nestedBodies.sorted(by: { $0.key < $1.key }) {
            // Any other value than an object is the decoder's to refuse, with its type.
            guard case .object(let inner)? = members[name] else { continue }
            if let unknown = undeclaredMember(of: inner, in: nested, path: "\(path)\(name).") { return unknown }
        }
        return nil
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
