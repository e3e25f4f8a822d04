import Foundation
import LimenOIDC

/// Every error the Limen SDK reports, grouped by domain, each with a stable ``code``.
///
/// ```swift
/// do {
///     let token = try await client.validAccessToken()
/// } catch let error where error.isRetryable {
///     // offline or the server is busy: keep the session, try later
/// } catch let error where error.requiresReauthentication {
///     // show the sign-in screen
/// }
/// ```
public enum LimenError: Error, Sendable, Equatable {
    /// The SDK is configured wrongly.
    case configuration(ConfigurationError)
    /// No HTTP answer, or one that says "try later".
    case network(NetworkError)
    /// The provider refused a request with an OAuth error.
    case oauth(OAuthError)
    /// The ID token failed validation.
    case idToken(IDTokenValidationError)
    /// The provider broke the protocol (issuer mismatch in discovery, state mismatch, malformed answer, …).
    case protocolViolation(OIDCError)
    /// Secure storage failed.
    case storage(StorageError)
    /// Field encryption, decryption, or a key export or import failed.
    case encryption(EncryptionError)
    /// Reading or writing the signed-in user's profile failed (see ``CurrentUser/get()``).
    case profile(ProfileError)
    /// A call about the account itself was refused: a linking case (``AccountError/migrationRequired(_:)``, …) or
    /// an account route's answer (``AccountError/lastIdentity``, ``AccountError/reauthenticationRequired(maxAge:)``).
    case account(AccountError)
    /// A flow that a convenience drove ended without a session (a wrong password, a wrong code, a flow the server
    /// ended); its network and client failures are reported as ``network(_:)`` and their own domains instead.
    case flow(FlowError)
    /// The host app could not answer another app's sign-in (``AuthClient/appToAppRequest(for:)``,
    /// ``AppToAppRequest/approve()``): not an authorization request for this provider, a fresh sign-in needed, an
    /// approval already used, or the provider's refusal.
    case appToApp(AppToAppError)
    /// The sign-in page could not be shown or returned nothing.
    case userAgent(UserAgentError)
    /// The user cancelled sign-in.
    case userCancelled
    /// The session ended (refresh token expired or revoked); the user must sign in again.
    case sessionExpired
    /// The call needs a signed-in user and there is none.
    case notSignedIn
    /// The certificate chain `host` presented matched none of the keys pinned for it (``Configuration/pinning``,
    /// enforced): the connection was refused before the request was sent. The session is kept.
    case pinningFailed(host: String)
    /// No DPoP proof could be made (``Configuration/dpop``): the key could not be made or could not sign.
    case dpop(DPoPError)

    /// Wraps a transport's error: a refused pin as ``pinningFailed(host:)``, a transport that cannot pin as
    /// ``configuration(_:)`` with ``ConfigurationError/pinningUnavailable(host:)``, anything else as ``network(_:)``.
    public init(_ error: NetworkError) {
        switch error {
        case .pinningFailed(let host): self = .pinningFailed(host: host)
        case .pinningUnavailable(let host): self = .configuration(.pinningUnavailable(host: host))
        default: self = .network(error)
        }
    }

    /// Wraps a protocol-layer error in its domain.
    public init(_ error: OIDCError) {
        switch error {
        case .network(let network): self = LimenError(network)
        case .oauth(let oauth): self = .oauth(oauth)
        case .idToken(let idToken): self = .idToken(idToken)
        case .dpop(let dpop): self = .dpop(dpop)
        default: self = .protocolViolation(error)
        }
    }

    /// Wraps why a flow ended: its network failure as ``network(_:)``, its client failure as itself, anything else as
    /// ``flow(_:)``.
    public init(_ error: FlowError) {
        switch error {
        case .network(let network): self = LimenError(network)
        case .client(let client): self = client
        default: self = .flow(error)
        }
    }

    /// Wraps a user agent error; a cancelled page becomes ``userCancelled``.
    public init(_ error: UserAgentError) {
        self = error == .cancelled ? .userCancelled : .userAgent(error)
    }

    /// A stable, machine-readable identifier such as `network.timeout` or `id_token.nonce_mismatch`.
    public var code: String {
        switch self {
        case .configuration(let error): error.code
        case .network(let error): error.code
        case .oauth(let error): error.code
        case .idToken(let error): error.code
        case .protocolViolation(let error): error.code
        case .storage(let error): error.code
        case .encryption(let error): error.code
        case .profile(let error): error.code
        case .account(let error): error.code
        case .flow(let error): error.code
        case .appToApp(let error): error.code
        case .userAgent(let error): error.code
        case .userCancelled: "user_cancelled"
        case .sessionExpired: "session_expired"
        case .notSignedIn: "not_signed_in"
        case .pinningFailed: "pinning_failed"
        case .dpop(let error): error.code
        }
    }

    /// Whether repeating the operation later, without user action, may succeed. The session is kept.
    public var isRetryable: Bool {
        switch self {
        case .network(let error): error.isRetryable
        case .oauth(let error): error.isRetryable
        case .storage(let error): error.isRetryable
        case .protocolViolation(let error): error.isRetryable
        case .profile(let error): error.isRetryable
        case .account(let error): error.isRetryable
        case .flow(let error): error.isRetryable
        case .appToApp(let error): error.isRetryable
        default: false
        }
    }

    /// Whether the user has to sign in (again) before this can succeed.
    public var requiresReauthentication: Bool {
        switch self {
        case .sessionExpired, .notSignedIn: true
        case .oauth(let error): error.requiresReauthentication
        case .account(let error): error.requiresReauthentication
        case .appToApp(let error): error.requiresReauthentication
        default: false
        }
    }
}

extension LimenError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .configuration(let error): error.errorDescription
        case .network(let error): error.errorDescription
        case .oauth(let error): "The server refused the request: \(error.localizedDescription)"
        case .idToken(let error): error.errorDescription
        case .protocolViolation(let error): error.errorDescription
        case .storage(let error): error.errorDescription
        case .encryption(let error): error.errorDescription
        case .profile(let error): error.errorDescription
        case .account(let error): error.errorDescription
        case .flow(let error): error.errorDescription
        case .appToApp(let error): error.errorDescription
        case .userAgent(let error): error.errorDescription
        case .userCancelled: "Sign-in was cancelled."
        case .sessionExpired: "The session has expired; sign in again."
        case .notSignedIn: "Nobody is signed in."
        case .pinningFailed(let host):
            "The certificates of \(host) match none of the keys pinned for it; the connection was refused."
        case .dpop(let error): error.errorDescription
        }
    }
}

extension LimenError {
    /// Runs a protocol-layer operation, mapping its ``OIDCError`` into the SDK's domains.
    static func mapping<Value>(_ operation: @Sendable () async throws(OIDCError) -> Value) async throws(LimenError)
        -> Value
    {
        do {
            return try await operation()
        } catch {
            throw LimenError(error)
        }
    }
}
