import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

/// Why a request to the AppleSignInKit-compatible routes (`/auth/…`) was refused; answered as
/// `{"success": false, "error": code, "message": text}` with a status AppleSignInKit's `NetworkError` maps: a `401`
/// means sign in again (its `requiresReauthentication`), a `400` a request the app must not repeat, a `5xx` a failure
/// to retry later. The body never says why a token was refused (the server's debug log does).
enum AppleSignInKitError: Error, Sendable, Equatable, LocalizedError {
    /// The body is not a JSON object of the expected shape, or a member is missing, of the wrong type or too long
    /// (400).
    case invalidRequest(String)
    /// The body is not `application/json` (415).
    case unsupportedMediaType
    /// The body is larger than ``AppleSignInKitBody/maximumSize`` (413).
    case tooLarge
    /// The identity token is not a valid one for this request (401).
    case invalidIdentityToken
    /// The refresh token is unknown, expired, revoked or was reused (401).
    case invalidRefreshToken
    /// The access token is missing, expired or revoked (401).
    case invalidAccessToken
    /// A server-to-server notification that is not Apple's, not for this app, or too old (400).
    case invalidNotification
    /// The Apple ID leads to no account and the server makes none: sign-up is off (403).
    case signUpDisabled
    /// Apple's keys could not be fetched (503).
    case appleUnavailable
    /// The server failed (500).
    case serverError

    /// The wire `error`.
    var wireCode: String {
        switch self {
        case .invalidRequest, .tooLarge: "invalid_request"
        case .unsupportedMediaType: "unsupported_media_type"
        case .invalidIdentityToken: "invalid_identity_token"
        case .invalidRefreshToken: "invalid_grant"
        case .invalidAccessToken: "invalid_token"
        case .invalidNotification: "invalid_notification"
        case .signUpDisabled: "sign_up_disabled"
        case .appleUnavailable: "temporarily_unavailable"
        case .serverError: "server_error"
        }
    }

    /// A human message, sent as `message`.
    var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason): reason
        case .unsupportedMediaType: "the body must be application/json"
        case .tooLarge: "the request body is too large"
        case .invalidIdentityToken: "the Apple identity token is not valid; sign in with Apple again"
        case .invalidRefreshToken: "the session has ended; sign in again"
        case .invalidAccessToken: "the access token is not valid; refresh it or sign in again"
        case .invalidNotification: "the notification is not a valid one of Apple's for this app"
        case .signUpDisabled: "new accounts cannot be made here; sign in with an existing account"
        case .appleUnavailable: "Apple's keys could not be fetched; try again later"
        case .serverError: "the server could not complete the request"
        }
    }

    /// The HTTP status that answers it.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest, .invalidNotification: .badRequest
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooLarge: .contentTooLarge
        case .invalidIdentityToken, .invalidRefreshToken, .invalidAccessToken: .unauthorized
        case .signUpDisabled: .forbidden
        case .appleUnavailable: .serviceUnavailable
        case .serverError: .internalServerError
        }
    }

    /// The JSON error response, never cached; a refused access token carries RFC 6750's challenge too.
    var response: Response {
        var response = Responses.json(
            .object([
                "success": .bool(false), "error": .string(wireCode), "message": .string(errorDescription ?? wireCode),
            ]),
            status: status, noStore: true)
        if self == .invalidAccessToken {
            response.headers[.wwwAuthenticate] = "Bearer realm=\"limen\", error=\"invalid_token\""
        }
        return response
    }
}

extension AppleSignInKitError: HTTPResponseError {
    /// The JSON error (``response``): what Hummingbird answers when an `/auth/…` route throws it.
    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}

extension AppleSignInKitError {
    /// The error answering a body ``JSONObjectBody`` refused.
    init(_ refusal: JSONObjectBody.Refusal) {
        switch refusal {
        case .unsupportedMediaType: self = .unsupportedMediaType
        case .tooLarge: self = .tooLarge
        case .invalid(let reason): self = .invalidRequest(reason)
        }
    }
}
