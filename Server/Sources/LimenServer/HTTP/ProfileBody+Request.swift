import Foundation
import Hummingbird
import LimenServerCore
import LimenServerWire
import LimenWire

extension ProfileBody {
    /// The data a `PUT` replaces the profile with.
    static func replacement(from request: Request) async throws(ProfileError) -> [String: JSONValue] {
        try data(in: try await document(from: request, mediaType: jsonType))
    }

    /// The merge patch a `PATCH` sends, to apply with ``patched(_:with:)``.
    static func patch(from request: Request) async throws(ProfileError) -> JSONValue {
        let patch = try await document(from: request, mediaType: mergePatchType)
        guard case .object = patch else { throw .invalidRequest("the merge patch must be a JSON object") }
        return patch
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
}
