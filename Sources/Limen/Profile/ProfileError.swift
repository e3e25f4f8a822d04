import Foundation
import LimenOIDC

/// Why reading or writing the signed-in user's profile failed (as ``LimenError/profile(_:)``).
///
/// ```swift
/// do {
///     try await client.user.set(field: "nickname", value: "Ada")
/// } catch .profile(.invalidField(let field, let reason)) {
///     form.showError(reason, on: field)
/// } catch .profile(.conflict(let fields)) {
///     // someone else changed these fields meanwhile: show theirs, ask again
/// }
/// ```
public enum ProfileError: Error, Sendable, Equatable {
    /// The value of `field` breaks the app schema (or the user may not edit it): the server's `400 invalid_profile`.
    case invalidField(field: String, reason: String)
    /// The server refused the request's shape (`400 invalid_request`); the reason is the server's description.
    case invalidRequest(String)
    /// The write lost a race: another writer changed `fields` (those this write changes) since this device last
    /// read the profile, or kept changing the profile while the write was applied again (then `fields` lists all
    /// this write changes). Nothing was written; read the profile again and decide.
    case conflict(fields: [String])
    /// The encrypted `field` could not be decrypted on this device (no key, another key, altered): the whole read
    /// fails rather than hand ciphertext to the app. Import the key with
    /// ``CurrentUser/importEncryptionKey(_:passphrase:)``, or overwrite the field.
    case undecryptableField(field: String, reason: EncryptionError)
    /// The access token does not grant the `profile` scope (`403 insufficient_scope`): sign in with it.
    case insufficientScope
    /// The body or the profile it would make is larger than the server accepts (`413`).
    case tooLarge
    /// The provider publishes no app schema (`GET /v1/app` is `404`): it is not a Limen Server, or too old.
    case unsupported
    /// The server answered with an unexpected status; `code` is its `error`, if it sent one.
    case server(status: Int, code: String?)
    /// The server's answer is not of the documented shape.
    case malformedResponse(String)

    /// A stable, machine-readable identifier such as `profile.invalid_field`.
    public var code: String {
        switch self {
        case .invalidField: "profile.invalid_field"
        case .invalidRequest: "profile.invalid_request"
        case .conflict: "profile.conflict"
        case .undecryptableField: "profile.undecryptable_field"
        case .insufficientScope: "profile.insufficient_scope"
        case .tooLarge: "profile.too_large"
        case .unsupported: "profile.unsupported"
        case .server: "profile.server_error"
        case .malformedResponse: "profile.malformed_response"
        }
    }

    /// Whether repeating the call later may succeed without any change: a server error (5xx).
    public var isRetryable: Bool {
        if case .server(let status, _) = self { return status >= 500 }
        return false
    }
}

extension ProfileError: LocalizedError {
    /// A human-readable description; never contains a field's value.
    public var errorDescription: String? {
        switch self {
        case .invalidField(let field, let reason): "The profile field \(field) was refused: \(reason)"
        case .invalidRequest(let reason): "The profile request was refused: \(reason)"
        case .conflict(let fields):
            fields.isEmpty
                ? "The profile changed on another device meanwhile; read it again."
                : "The profile fields \(fields.sorted().joined(separator: ", ")) changed on another device meanwhile."
        case .undecryptableField(let field, let reason):
            "The encrypted profile field \(field) cannot be read on this device: \(reason.errorDescription ?? reason.code)"
        case .insufficientScope: "The session does not grant the profile scope; sign in asking for it."
        case .tooLarge: "The profile would be larger than the server accepts."
        case .unsupported: "The provider has no app schema (it is not a Limen Server)."
        case .server(let status, let code): "The profile server answered \(status)\(code.map { " (\($0))" } ?? "")."
        case .malformedResponse(let reason): "The profile server's answer is malformed: \(reason)"
        }
    }
}

extension ProfileError {
    /// The error a profile route's non-2xx `response` means: `{"error", "error_description", "field"}` read when
    /// present.
    package init(response: HTTPResponse) {
        let members = (try? JSONValue(parsing: response.body))?.objectValue ?? [:]
        let code = members["error"]?.stringValue
        let description = members["error_description"]?.stringValue ?? code ?? "status \(response.status)"
        switch (response.status, code) {
        case (400, "invalid_profile"):
            let field = members["field"]?.stringValue ?? ""
            let prefix = "\(field): "
            let reason = description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
            self = .invalidField(field: field, reason: reason)
        case (400, _): self = .invalidRequest(description)
        case (403, _) where Self.isInsufficientScope(response, code: code): self = .insufficientScope
        case (404, _): self = .unsupported
        case (413, _): self = .tooLarge
        default: self = .server(status: response.status, code: code)
        }
    }

    private static func isInsufficientScope(_ response: HTTPResponse, code: String?) -> Bool {
        code == "insufficient_scope"
            || (response.header("WWW-Authenticate")?.contains("insufficient_scope") ?? false)
    }
}
