import Foundation
import LimenServerWire
import LimenWire

/// The bodies of profile writes: `PUT` takes the representation `{"data": {NAME: value}}` as `application/json`;
/// `PATCH` takes an RFC 7396 merge patch of that representation as `application/merge-patch+json`
/// (`{"data": {"nickname": "Ada", "pronouns": null}}`). Both read strictly (no member twice), at most
/// ``ProfileLimits/maximumDocumentSize``; a member whose value is `null` has no value (it is removed).
package enum ProfileBody {
    /// The media type of `PUT`.
    package static let jsonType = "application/json"
    /// The media type of `PATCH` (RFC 7396 §4).
    package static let mergePatchType = "application/merge-patch+json"

    /// The data the `PUT` body `json` replaces the profile with.
    package static func replacement(from json: Data) throws(ProfileError) -> [String: JSONValue] {
        try data(in: try document(from: json))
    }

    /// `data` with the merge patch `patch` (of the whole representation) applied.
    package static func patched(_ data: [String: JSONValue], with patch: JSONValue) throws(ProfileError) -> [String:
        JSONValue]
    {
        guard case .object(let result) = MergePatch.apply(patch, to: .object(["data": .object(data)])) else {
            throw .invalidRequest("the merge patch must be a JSON object")
        }
        return try self.data(in: .object(result.isEmpty ? ["data": .object([:])] : result))
    }

    /// The representation of `record`: `{"data": …}`.
    package static func representation(of data: [String: JSONValue]) -> JSONValue {
        .object(["data": .object(data)])
    }

    /// The members of the representation `document`, without those whose value is `null`.
    package static func data(in document: JSONValue) throws(ProfileError) -> [String: JSONValue] {
        guard case .object(let members) = document else { throw .invalidRequest("the body must be a JSON object") }
        if let unknown = members.keys.filter({ $0 != "data" }).min() {
            throw .invalidRequest("\(unknown) is not a member of this request; send the fields inside data")
        }
        switch members["data"] {
        case .object(let data)?: return data.filter { $0.value != .null }
        case .null?: return [:]
        default: throw .invalidRequest("data must be a JSON object of fields by name")
        }
    }

    /// `json` read strictly.
    package static func document(from json: Data) throws(ProfileError) -> JSONValue {
        do {
            return try JSONValue(parsing: json)
        } catch .duplicateMemberName(let name) {
            throw .invalidRequest("\(name) is given more than once")
        } catch {
            throw .invalidRequest("the body is not valid JSON")
        }
    }
}
