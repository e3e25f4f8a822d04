import Foundation
import LimenWire

/// Everything a LimenOIDC operation can fail with: one case per domain, each carrying that domain's typed error.
public enum OIDCError: Error, Sendable, Equatable {
    /// No HTTP answer, or one that says "try later".
    case network(NetworkError)
    /// The server answered with an OAuth error (RFC 6749 §5.2) or sent one to the redirect URI.
    case oauth(OAuthError)
    /// The provider's metadata could not be used.
    case discovery(DiscoveryError)
    /// The ID token failed validation.
    case idToken(IDTokenValidationError)
    /// The redirect back from the authorization endpoint was refused.
    case authorizationResponse(AuthorizationResponseError)
    /// The server's answer was not what the protocol requires (for example JSON without `access_token`).
    case invalidResponse(endpoint: String, reason: String)
    /// The UserInfo response is for another user than the ID token (OpenID Connect Core §5.3.2).
    case userInfoSubjectMismatch(expected: String, actual: String)
    /// The provider does not offer what was asked (for example no device authorization endpoint).
    case unsupported(String)
    /// No DPoP proof could be made for the request (RFC 9449).
    case dpop(DPoPError)

    /// A stable, machine-readable identifier such as `network.timeout` or `oauth.invalid_grant`.
    public var code: String {
        switch self {
        case .network(let error): error.code
        case .oauth(let error): error.code
        case .discovery(let error): error.code
        case .idToken(let error): error.code
        case .authorizationResponse(let error): error.code
        case .invalidResponse: "protocol.invalid_response"
        case .userInfoSubjectMismatch: "userinfo.subject_mismatch"
        case .unsupported: "provider.unsupported"
        case .dpop(let error): error.code
        }
    }

    /// Whether the same operation may succeed if repeated later without user action.
    public var isRetryable: Bool {
        switch self {
        case .network(let error): error.isRetryable
        case .oauth(let error): error.isRetryable
        case .discovery, .idToken, .authorizationResponse, .invalidResponse, .userInfoSubjectMismatch, .unsupported,
            .dpop:
            false
        }
    }
}

extension OIDCError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .network(let error): error.errorDescription ?? error.code
        case .oauth(let error): "The server refused the request: \(error.localizedDescription)"
        case .discovery(let error): error.errorDescription ?? error.code
        case .idToken(let error): error.errorDescription ?? error.code
        case .authorizationResponse(let error): error.errorDescription ?? error.code
        case .invalidResponse(let endpoint, let reason): "The \(endpoint) endpoint's answer is invalid: \(reason)."
        case .userInfoSubjectMismatch: "The UserInfo response belongs to another user than the ID token."
        case .unsupported(let what): "The provider does not support \(what)."
        case .dpop(let error): error.errorDescription ?? error.code
        }
    }
}
