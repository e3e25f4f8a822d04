import LimenOIDC
import LimenServerStorage
import Logging

/// Why a sign-in through an upstream provider did not finish. The hosted pages answer each with a message page; the
/// case is for the log (its ``code`` only: never a token, code or secret) and for tests.
package enum UpstreamSignInError: Error, Sendable, Equatable {
    /// The `state` names no attempt in progress: unknown, expired, already used (a replay), or another provider's.
    case unknownAttempt
    /// LimenOIDC refused a step: discovery, the authorization response (an error the provider sent, a wrong `iss`),
    /// the code exchange, or the ID token (signature, audience, nonce, times).
    case refused(OIDCError)
    /// The token response carries no ID token.
    case missingIDToken
    /// Limen's store failed.
    case storage(StorageError)

    /// A stable code for the log.
    package var code: String {
        switch self {
        case .unknownAttempt: "federation.unknown_attempt"
        case .refused(let error): "federation.\(error.code)"
        case .missingIDToken: "federation.missing_id_token"
        case .storage(let error): error.code
        }
    }

    /// Whether the provider could not be reached or answered out of protocol (rather than refusing the person).
    package var isUnavailable: Bool {
        guard case .refused(let error) = self else { return false }
        switch error {
        case .network, .discovery, .invalidResponse: return true
        default: return false
        }
    }

    /// Logs to `logger` that a sign-in through `provider` did not finish, by its ``code`` only.
    package func log(provider: IdentityProvider, to logger: Logger = Logger(label: "limen.federation")) {
        logger.notice(
            "An upstream sign-in did not finish", metadata: ["provider": "\(provider.id)", "error": "\(code)"])
    }
}
