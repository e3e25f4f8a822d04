import Foundation

/// An error that an OAuth 2.0 / OpenID Connect server reported (RFC 6749 §4.1.2.1, §5.2; RFC 8628 §3.5).
///
/// The server's `error` value is kept as ``ErrorCode`` (an open set: providers add their own), together with the
/// description, URI and HTTP status it came with.
public struct OAuthError: Error, Sendable, Equatable {
    /// The `error` value the server sent.
    public var error: ErrorCode
    /// The `error_description` the server sent, if any. Meant for developers, not end users.
    public var errorDescription: String?
    /// The `error_uri` the server sent, if any.
    public var errorURI: String?
    /// The HTTP status of the response that carried the error (`nil` for errors delivered in a redirect).
    public var httpStatus: Int?

    /// Creates an error value.
    public init(error: ErrorCode, errorDescription: String? = nil, errorURI: String? = nil, httpStatus: Int? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.httpStatus = httpStatus
    }

    /// A stable, machine-readable identifier: `oauth.` followed by the server's `error` value.
    public var code: String { "oauth.\(error.rawValue)" }

    /// Whether the grant behind the request is gone, so the user must sign in again.
    public var requiresReauthentication: Bool {
        [.invalidGrant, .loginRequired, .interactionRequired, .consentRequired, .accessDenied].contains(error)
    }

    /// Whether the same request may succeed later (`temporarily_unavailable`, `server_error`).
    public var isRetryable: Bool {
        [.temporarilyUnavailable, .serverError].contains(error)
    }

    /// An `error` value from RFC 6749, OpenID Connect Core §3.1.2.6, RFC 8628 §3.5, RFC 6750 §3.1, or a provider.
    public struct ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The wire value.
        public var rawValue: String
        /// Wraps a wire value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire value.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The request is missing a parameter or is otherwise malformed.
        public static let invalidRequest: ErrorCode = "invalid_request"
        /// Client authentication failed.
        public static let invalidClient: ErrorCode = "invalid_client"
        /// The code, refresh token or device code is invalid, expired, revoked or was issued to another client.
        public static let invalidGrant: ErrorCode = "invalid_grant"
        /// The client may not use this grant type.
        public static let unauthorizedClient: ErrorCode = "unauthorized_client"
        /// The server does not support this grant type.
        public static let unsupportedGrantType: ErrorCode = "unsupported_grant_type"
        /// A requested scope is invalid or unknown.
        public static let invalidScope: ErrorCode = "invalid_scope"
        /// The resource owner or the server denied the request.
        public static let accessDenied: ErrorCode = "access_denied"
        /// The server does not support this response type.
        public static let unsupportedResponseType: ErrorCode = "unsupported_response_type"
        /// The server met an unexpected condition.
        public static let serverError: ErrorCode = "server_error"
        /// The server is temporarily unable to handle the request.
        public static let temporarilyUnavailable: ErrorCode = "temporarily_unavailable"
        /// `prompt=none` was sent but the user must interact.
        public static let interactionRequired: ErrorCode = "interaction_required"
        /// `prompt=none` was sent but the user is not signed in.
        public static let loginRequired: ErrorCode = "login_required"
        /// `prompt=none` was sent but the user must consent.
        public static let consentRequired: ErrorCode = "consent_required"
        /// Device grant: the user has not finished yet (RFC 8628 §3.5).
        public static let authorizationPending: ErrorCode = "authorization_pending"
        /// Device grant: poll more slowly (RFC 8628 §3.5).
        public static let slowDown: ErrorCode = "slow_down"
        /// Device grant: the device code expired (RFC 8628 §3.5).
        public static let expiredToken: ErrorCode = "expired_token"
        /// Bearer token rejected by a resource server (RFC 6750 §3.1).
        public static let invalidToken: ErrorCode = "invalid_token"
        /// DPoP: the proof must carry the nonce the server sent in `DPoP-Nonce` (RFC 9449 §8, §9).
        public static let useDPoPNonce: ErrorCode = "use_dpop_nonce"
        /// DPoP: the proof was refused (RFC 9449 §5, §7.1).
        public static let invalidDPoPProof: ErrorCode = "invalid_dpop_proof"
    }
}

extension OAuthError: LocalizedError {
    /// A human-readable description including the server's own words when it gave some.
    public var localizedDescription: String {
        errorDescription.map { "\(error.rawValue): \($0)" } ?? error.rawValue
    }
}

extension OAuthError {
    /// Reads an RFC 6749 §5.2 error body; returns `nil` when the body is not such JSON.
    public static func fromErrorBody(_ body: Data, httpStatus: Int) -> OAuthError? {
        struct Body: Decodable {
            var error: String
            var errorDescription: String?
            var errorURI: String?

            enum CodingKeys: String, CodingKey {
                case error
                case errorDescription = "error_description"
                case errorURI = "error_uri"
            }
        }
        guard let decoded = try? JSONDecoder().decode(Body.self, from: body), !decoded.error.isEmpty else { return nil }
        return OAuthError(
            error: ErrorCode(rawValue: decoded.error),
            errorDescription: decoded.errorDescription,
            errorURI: decoded.errorURI,
            httpStatus: httpStatus
        )
    }
}
