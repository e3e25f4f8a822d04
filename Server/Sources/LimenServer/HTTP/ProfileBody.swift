import Foundation
import Hummingbird
import LimenServerWire
import LimenWire

/// The bodies of profile writes: `PUT` takes the representation `{"data": {NAME: value}}` as `application/json`;
/// `PATCH` takes an RFC 7396 merge patch of that representation as `application/merge-patch+json`
/// (`{"data": {"nickname": "Ada", "pronouns": null}}`). Both read strictly (no member twice), at most
/// ``ProfileLimits/maximumDocumentSize``; a member whose value is `null` has no value (it is removed).
enum ProfileBody {
    /// The media type of `PUT`.
    static let jsonType = "application/json"
    /// The media type of `PATCH` (RFC 7396 §4).
    static let mergePatchType = "application/merge-patch+json"

    /// The data a `PUT` replaces the profile with.
    static func replacement(from request: Request) async throws(ProfileError) -> [String: JSONValue] {
        try data(in: try await document(from: request, mediaType: jsonType))
    }

    /// The data the `PUT` body `json` replaces the profile with.
    static func replacement(from json: Data) throws(ProfileError) -> [String: JSONValue] {
        try data(in: try document(from: json))
    }

    /// The merge patch a `PATCH` sends, to apply with ``patched(_:with:)``.
    static func patch(from request: Request) async throws(ProfileError) -> JSONValue {
        let patch = try await document(from: request, mediaType: mergePatchType)
        guard case .object = patch else { throw .invalidRequest("the merge patch must be a JSON object") }
        return patch
    }

    /// `data` with the merge patch `patch` (of the whole representation) applied.
    static func patched(_ data: [String: JSONValue], with patch: JSONValue) throws(ProfileError) -> [String: JSONValue]
    {
        guard case .object(let result) = MergePatch.apply(patch, to: .object(["data": .object(data)])) else {
            throw .invalidRequest("the merge patch must be a JSON object")
        }
        return try self.data(in: .object(result.isEmpty ? ["data": .object([:])] : result))
    }

    /// The representation of `record`: `{"data": …}`.
    static func representation(of data: [String: JSONValue]) -> JSONValue {
        .object(["data": .object(data)])
    }

    /// The members of the representation `document`, without those whose value is `null`.
    private static func data(in document: JSONValue) throws(ProfileError) -> [String: JSONValue] {
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

    /// The body as JSON of `mediaType`.
    private static func document(from request: Request, mediaType: String) async throws(ProfileError) -> JSONValue {
        guard MediaType.matches(request.headers[.contentType], mediaType) else {
            throw .unsupportedMediaType(expected: mediaType)
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: ProfileLimits.maximumDocumentSize) else {
            throw .tooLarge("the body")
        }
        return try document(from: Data(buffer.readableBytesView))
    }

    /// `json` read strictly.
    private static func document(from json: Data) throws(ProfileError) -> JSONValue {
        do {
            return try JSONValue(parsing: json)
        } catch .duplicateMemberName(let name) {
            throw .invalidRequest("\(name) is given more than once")
        } catch {
            throw .invalidRequest("the body is not valid JSON")
        }
    }
}
