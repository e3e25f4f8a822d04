import Foundation
import LimenServerStorage
import LimenWire

/// Why a profile read or write (`/v1/me/data`, `/admin/users/{id}/data`) was refused; answered as
/// `{"error": …, "error_description": …}`, with `field` naming the profile field at fault when there is one.
package enum ProfileError: Error, Sendable, Equatable, LocalizedError {
    /// The body is not a JSON object of the expected shape (400).
    case invalidRequest(String)
    /// The value of `field` breaks the app schema (400).
    case invalidField(field: String, reason: String)
    /// The body is not of the media type the method reads (415).
    case unsupportedMediaType(expected: String)
    /// The body, or the profile it would make, is larger than ``ProfileLimits/maximumDocumentSize`` (413).
    case tooLarge(String)
    /// `If-Match` names a revision that is no longer current (412).
    case preconditionFailed
    /// Concurrent writes kept changing the profile under a write without `If-Match` (409).
    case conflict
    /// Nothing has this ID (404).
    case notFound
    /// The store failed (500).
    case serverError

    /// A stable code for logs and tests.
    package var code: String { "profile.\(wireCode)" }

    /// A human message, sent as `error_description`; a field's refusal starts with its name.
    package var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason): reason
        case .invalidField(let field, let reason): "\(field): \(reason)"
        case .unsupportedMediaType(let expected): "the body must be \(expected)"
        case .tooLarge(let what): "\(what) is larger than \(ProfileLimits.maximumDocumentSize / 1024) KiB"
        case .preconditionFailed: "If-Match does not name the current revision; read the profile again"
        case .conflict: "the profile changed during the write; try again"
        case .notFound: "no user with this ID"
        case .serverError: "the server could not complete the request"
        }
    }

    /// The wire `error`.
    package var wireCode: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidField: "invalid_profile"
        case .unsupportedMediaType: "unsupported_media_type"
        case .tooLarge: "request_too_large"
        case .preconditionFailed: "precondition_failed"
        case .conflict: "conflict"
        case .notFound: "not_found"
        case .serverError: "server_error"
        }
    }
}

/// The sizes a profile may reach.
package enum ProfileLimits {
    /// The largest request body, and the largest stored profile (as JSON text).
    package static let maximumDocumentSize = 64 * 1024
    /// The largest value of one field (as JSON text): room for a JWE of about 11 KiB of plaintext.
    static let maximumFieldSize = 16 * 1024
}
