import Foundation

/// The seam that shows the provider's sign-in page and brings back the redirect.
///
/// Implementations: `LoopbackUserAgent` (LimenLoopback) (system browser + RFC 8252 loopback listener), the
/// ASWebAuthenticationSession adapter in LimenApple, ``AppToAppUserAgent`` (the provider's own app, else a fallback),
/// and test drivers that play the browser.
public protocol UserAgent: Sendable {
    /// Opens `url` and returns the first redirect that `callback` accepts.
    /// - Throws: ``UserAgentError``; ``UserAgentError/cancelled`` when the user closed the page or the task was
    ///   cancelled.
    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL
}

/// Decides whether a URL is the redirect a sign-in attempt waits for: same scheme, host, port and path as the
/// redirect URI that was sent.
public struct CallbackMatcher: Sendable, Equatable {
    /// The redirect URI sent in the authorization request.
    public let redirectURI: URL

    /// Creates a matcher for a redirect URI.
    public init(redirectURI: URL) {
        self.redirectURI = redirectURI
    }

    /// Whether `url` is a redirect to ``redirectURI`` (query and fragment are ignored).
    public func matches(_ url: URL) -> Bool {
        guard let candidate = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let expected = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)
        else { return false }
        return candidate.scheme?.lowercased() == expected.scheme?.lowercased()
            && candidate.host?.lowercased() == expected.host?.lowercased()
            && candidate.port == expected.port
            && candidate.path == expected.path
    }
}

/// Why a user agent did not bring back a redirect.
public enum UserAgentError: Error, Sendable, Equatable {
    /// The user closed the sign-in page, or the waiting task was cancelled.
    case cancelled
    /// No matching redirect arrived in time.
    case timedOut
    /// The loopback listener could not start (for example the chosen port is taken).
    case listenerFailed(String)
    /// The page could not be shown (no browser, or the platform refused).
    case presentationFailed(String)

    /// A stable, machine-readable identifier.
    public var code: String {
        switch self {
        case .cancelled: "user_agent.cancelled"
        case .timedOut: "user_agent.timed_out"
        case .listenerFailed: "user_agent.listener_failed"
        case .presentationFailed: "user_agent.presentation_failed"
        }
    }
}

extension UserAgentError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .cancelled: "Sign-in was cancelled."
        case .timedOut: "Sign-in timed out waiting for the browser."
        case .listenerFailed(let detail): "The local sign-in listener could not start: \(detail)."
        case .presentationFailed(let detail): "The sign-in page could not be opened: \(detail)."
        }
    }
}
