import Foundation
import LimenServerStorage
import LimenWire

/// A refusal by `/token`, `/device_authorization`, `/revoke` or `/introspect`, answered as RFC 6749 §5.2 says.
///
/// Grant errors say nothing an attacker could use (which check failed is logged nowhere and shown nowhere).
public enum TokenEndpointError: Error, Sendable, Equatable, LocalizedError {
    /// The request is malformed: a missing or repeated parameter, two client authentication methods.
    case invalidRequest(String)
    /// The body is not `application/x-www-form-urlencoded` (answered with 415).
    case unsupportedMediaType
    /// The body is larger than the endpoint accepts (answered with 413).
    case bodyTooLarge
    /// Client authentication failed (401); `basicChallenge` when the client tried HTTP Basic.
    case invalidClient(basicChallenge: Bool)
    /// The code, refresh token or PKCE verifier is not valid.
    case invalidGrant
    /// The client may not use this grant type (or endpoint).
    case unauthorizedClient(String)
    /// The grant type is not one this server supports.
    case unsupportedGrantType
    /// The requested scope exceeds what was granted.
    case invalidScope
    /// A requested scope is unknown, or `openid` is missing (`/device_authorization`).
    case unknownScope(String)
    /// RFC 8628 §3.5: the user has not decided yet; poll again after the interval.
    case authorizationPending
    /// RFC 8628 §3.5: polled faster than the interval, which has now grown by 5 seconds.
    case slowDown
    /// RFC 8628 §3.5: the user denied the device authorization.
    case accessDenied
    /// RFC 8628 §3.5: the device code expired; the device must start again.
    case expiredToken
    /// The `resource` is not an absolute URI without a fragment, or not one the server issues tokens for (RFC 8707 §2).
    case invalidTarget(String)
    /// The database cannot serve for now: try again in a second (503, `Retry-After: 1`).
    case temporarilyUnavailable
    /// The server could not complete the request.
    case serverError
    /// The request's DPoP proof was refused, or it has none and the client must send one (RFC 9449 §5, §8).
    case dpop(DPoPRefusal)

    /// The RFC 6749 §5.2 `error` value.
    public var code: String {
        switch self {
        case .invalidRequest, .unsupportedMediaType, .bodyTooLarge: "invalid_request"
        case .invalidClient: "invalid_client"
        case .invalidGrant: "invalid_grant"
        case .unauthorizedClient: "unauthorized_client"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .invalidScope, .unknownScope: "invalid_scope"
        case .authorizationPending: "authorization_pending"
        case .slowDown: "slow_down"
        case .accessDenied: "access_denied"
        case .expiredToken: "expired_token"
        case .invalidTarget: "invalid_target"
        case .temporarilyUnavailable: "temporarily_unavailable"
        case .serverError: "server_error"
        case .dpop(let refusal): refusal.code
        }
    }

    /// A human message, sent as `error_description`.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason): reason
        case .unsupportedMediaType: "the body must be application/x-www-form-urlencoded"
        case .bodyTooLarge: "the request body is too large"
        case .invalidClient: "client authentication failed"
        case .invalidGrant: "the grant is invalid, expired or revoked"
        case .unauthorizedClient(let reason): reason
        case .unsupportedGrantType: "unsupported grant_type"
        case .invalidScope: "the requested scope exceeds the granted scope"
        case .unknownScope(let reason): reason
        case .authorizationPending: "the user has not yet allowed or denied this device"
        case .slowDown: "polling too often: wait longer between requests"
        case .accessDenied: "the user denied this device"
        case .expiredToken: "the device code has expired"
        case .invalidTarget(let reason): reason
        case .temporarilyUnavailable: "the service is briefly unavailable; try again shortly"
        case .serverError: "the server could not complete the request"
        case .dpop(let refusal): refusal.message
        }
    }
}
