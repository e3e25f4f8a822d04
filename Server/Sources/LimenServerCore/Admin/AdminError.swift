import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Why an admin API request was refused; answered as `{"error": …, "error_description": …}`.
package enum AdminError: Error, Sendable, Equatable, LocalizedError {
    /// The body is not JSON of the expected shape, or a query parameter is invalid (400).
    case invalidRequest(String)
    /// The body is not `application/json` (415).
    case unsupportedMediaType
    /// The body is larger than ``AdminJSON/maximumBodySize`` (413).
    case bodyTooLarge
    /// A client cannot be registered as asked, because of the request member `field` (400; 409 when the ID is taken).
    case client(ClientRegistrationError, field: String)
    /// A user cannot be created or changed as asked (400; 409 when the email is taken, 503 when hashing is full).
    case account(AccountError)
    /// Nothing has this ID; the associated value names what was looked for (404).
    case notFound(String)
    /// The resource is busy in a way that refuses the change now (409); the associated value says why.
    case conflict(String)
    /// The database cannot serve for now (503, `Retry-After: 1`).
    case unavailable
    /// The store failed (500).
    case serverError

    /// The answer to the store's `error`: ``unavailable`` when trying again shortly may succeed, else ``serverError``.
    package init(_ error: StorageError) {
        self = error.isUnavailable ? .unavailable : .serverError
    }

    /// What the store call `call` answers; its failure as ``init(_:)`` makes it (the server's, or unavailable).
    package static func storage<Value>(_ call: () async throws(StorageError) -> Value) async throws(AdminError)
        -> Value
    {
        do {
            return try await call()
        } catch {
            throw AdminError(error)
        }
    }

    /// A stable code for logs and tests.
    package var code: String {
        switch self {
        case .invalidRequest: "admin.invalid_request"
        case .unsupportedMediaType: "admin.unsupported_media_type"
        case .bodyTooLarge: "admin.body_too_large"
        case .client(let error, _): error.code
        case .account(let error): error.code
        case .notFound: "admin.not_found"
        case .conflict: "admin.conflict"
        case .unavailable: "admin.unavailable"
        case .serverError: "admin.server_error"
        }
    }

    /// A human message, sent as `error_description`; a client registration error starts with the member it is about.
    package var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason): reason
        case .unsupportedMediaType: "the body must be application/json"
        case .bodyTooLarge: "the body is larger than \(AdminJSON.maximumBodySize / 1024) KiB"
        case .client(let error, let field): "\(field): \(error.errorDescription ?? error.code)"
        case .account(let error): error.errorDescription
        case .notFound(let what): "no \(what) with this ID"
        case .conflict(let reason): reason
        case .unavailable: "the service is briefly unavailable; try again shortly"
        case .serverError: "the server could not complete the request"
        }
    }

    /// The wire `error`: RFC 7591 §3.2.2's codes for client metadata, short snake_case names otherwise.
    package var wireCode: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .unsupportedMediaType: "unsupported_media_type"
        case .bodyTooLarge: "request_too_large"
        case .client(.invalidRedirectURI, _), .client(.noRedirectURI, _): "invalid_redirect_uri"
        case .client(.alreadyExists, _): "client_exists"
        case .client: "invalid_client_metadata"
        case .account(.emailTaken): "email_taken"
        case .account(.invalidEmail): "invalid_email"
        case .account(.weakPassword): "weak_password"
        case .account(.fieldTooLong): "field_too_long"
        case .account(.busy), .unavailable: "temporarily_unavailable"
        case .notFound: "not_found"
        case .conflict: "conflict"
        case .account, .serverError: "server_error"
        }
    }
}
