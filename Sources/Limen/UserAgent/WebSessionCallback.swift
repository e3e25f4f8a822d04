import Foundation

/// How an `ASWebAuthenticationSession` recognises the redirect that ends a sign-in, chosen from the redirect URI, and
/// how what the session reports becomes the attempt's result: the platform-independent part of `LimenApple`'s
/// `WebAuthenticationSessionUserAgent`, tested on Linux.
package enum WebSessionCallback: Equatable, Sendable {
    /// `ASWebAuthenticationSession.Callback.customScheme(_:)` (iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4).
    case customScheme(String)
    /// `ASWebAuthenticationSession.Callback.https(host:path:)`, for a redirect to one of the app's associated domains.
    case https(host: String, path: String)
    /// The older `init(url:callbackURLScheme:completionHandler:)`, where the `Callback` API is not available.
    case callbackURLScheme(String)

    /// The callback for `redirectURI`, on a system that has (`hasCallbackAPI`) or lacks the `Callback` API.
    /// - Returns: ``UserAgentError/presentationFailed(_:)`` for a redirect URI without a scheme, an `https` one without
    ///   a host or on a system without the `Callback` API, and an `http` one (a loopback redirect, for
    ///   `LoopbackUserAgent`).
    package static func choose(for redirectURI: URL, hasCallbackAPI: Bool) -> Result<Self, UserAgentError> {
        guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
            return .failure(.presentationFailed("the redirect URI has no scheme"))
        }
        switch scheme {
        case "https":
            guard let host = redirectURI.host(), !host.isEmpty else {
                return .failure(.presentationFailed("the https redirect URI has no host"))
            }
            guard hasCallbackAPI else {
                return .failure(
                    .presentationFailed("https redirect URIs need iOS 17.4, macOS 14.4, visionOS 1.1 or watchOS 10.4"))
            }
            let path = redirectURI.path()
            return .success(.https(host: host, path: path.isEmpty ? "/" : path))
        case "http":
            return .failure(.presentationFailed("http redirect URIs need LoopbackUserAgent"))
        default:
            return .success(hasCallbackAPI ? .customScheme(scheme) : .callbackURLScheme(scheme))
        }
    }

    /// The attempt's result from what the session's completion handler received.
    /// - Parameters:
    ///   - callbackURL: The redirect the session caught, if any.
    ///   - failure: `nil` without an error; else whether the error was the person closing the sheet
    ///     (`ASWebAuthenticationSessionError.canceledLogin`) and its description.
    ///   - callback: What the redirect must match.
    package static func outcome(
        callbackURL: URL?,
        failure: (isCancellation: Bool, description: String)?,
        callback: CallbackMatcher
    ) -> Result<URL, UserAgentError> {
        if let failure {
            return .failure(failure.isCancellation ? .cancelled : .presentationFailed(failure.description))
        }
        guard let callbackURL else {
            return .failure(.presentationFailed("the session ended without a redirect"))
        }
        guard callback.matches(callbackURL) else {
            return .failure(.presentationFailed("the redirect does not match the redirect URI"))
        }
        return .success(callbackURL)
    }
}
