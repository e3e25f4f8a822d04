import Foundation
import LimenWire

/// Why the redirect back from the authorization endpoint was refused.
public enum AuthorizationResponseError: Error, Sendable, Equatable {
    /// The `state` is missing or differs from the one sent: possible CSRF or a mixed-up flow.
    case stateMismatch
    /// The `iss` parameter is missing although the provider promised it (RFC 9207 §2.4).
    case missingIssuer
    /// The `iss` parameter names another issuer: possible mix-up attack (RFC 9207 §2.4).
    case issuerMismatch(expected: String, actual: String)
    /// Neither `code` nor `error` is present.
    case missingCode
    /// The URL is not the registered redirect URI.
    case unexpectedRedirect(String)

    /// A stable, machine-readable identifier.
    public var code: String {
        switch self {
        case .stateMismatch: "authorization.state_mismatch"
        case .missingIssuer: "authorization.missing_issuer"
        case .issuerMismatch: "authorization.issuer_mismatch"
        case .missingCode: "authorization.missing_code"
        case .unexpectedRedirect: "authorization.unexpected_redirect"
        }
    }
}

extension AuthorizationResponseError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .stateMismatch: "The sign-in response does not belong to this sign-in attempt (state mismatch)."
        case .missingIssuer: "The sign-in response does not name its issuer."
        case .issuerMismatch(let expected, let actual):
            "The sign-in response comes from issuer \(actual), not \(expected)."
        case .missingCode: "The sign-in response carries neither a code nor an error."
        case .unexpectedRedirect(let url): "\(url) is not the registered redirect URI."
        }
    }
}
