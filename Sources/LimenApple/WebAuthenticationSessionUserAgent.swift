#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation
    import Limen

    /// A ``UserAgent`` that shows the provider's sign-in page in an `ASWebAuthenticationSession`.
    ///
    /// Works with custom-scheme redirect URIs (`com.example.app:/callback`) everywhere, and with `https` redirect URIs
    /// on iOS 17.4, macOS 14.4 and visionOS 1.1 or later. An `https` callback is only delivered to the app when the
    /// redirect's host is one of its associated domains **for the `webcredentials` service**: the app's entitlement
    /// lists `webcredentials:id.example.com`, and the host serves an `apple-app-site-association` file naming the app
    /// under `webcredentials` (an `applinks` entry alone is not enough).
    /// For `http://127.0.0.1` loopback redirects use `LoopbackUserAgent` instead.
    ///
    /// The user closing the sheet, or cancelling the task that awaits ``authorize(url:callback:)``, ends the attempt
    /// with ``UserAgentError/cancelled``; cancelling the task also dismisses the sheet.
    ///
    /// The presentation anchor must be a window of a scene in the foreground, such as the window of the view the user
    /// tapped. A new `ASPresentationAnchor()` belongs to no scene, and the sheet then fails to appear.
    ///
    /// ```swift
    /// // In a view controller (iOS), from a view that is on screen:
    /// guard let window = view.window else { return }
    /// let agent = WebAuthenticationSessionUserAgent(prefersEphemeralWebBrowserSession: true) { window }
    /// let user = try await client.signIn(using: agent)
    /// ```
    ///
    /// tvOS and watchOS have no `ASWebAuthenticationSession`: sign in there with the device grant
    /// (`AuthClient.signInWithDeviceCode(showCode:)`), which shows a code to enter on a phone or computer.
    ///
    /// The class is isolated to the main actor, which makes it `Sendable`; ``authorize(url:callback:)`` may be called
    /// from any context and hops to the main actor itself.
    @MainActor
    public final class WebAuthenticationSessionUserAgent: UserAgent {
        /// Whether the browser is asked not to share cookies and other data with the user's normal browsing
        /// (no single sign-on with Safari, and no "wants to use … to sign in" prompt).
        public let prefersEphemeralWebBrowserSession: Bool
        private let presentationAnchor: @MainActor () -> ASPresentationAnchor

        /// Creates a user agent.
        ///
        /// - Parameters:
        ///   - prefersEphemeralWebBrowserSession: Ask the browser for a private session (see
        ///     ``prefersEphemeralWebBrowserSession``).
        ///   - presentationAnchor: Returns the window to present the sign-in sheet over: the window in the foreground
        ///     scene that the user acted in (`UIWindow` on iOS and visionOS, `NSWindow` on macOS). Called on the main
        ///     actor each time a sheet is shown.
        public init(
            prefersEphemeralWebBrowserSession: Bool = false,
            presentationAnchor: @escaping @MainActor () -> ASPresentationAnchor
        ) {
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            self.presentationAnchor = presentationAnchor
        }

        /// Shows `url` and returns the redirect that `callback` accepts.
        ///
        /// - Throws: ``UserAgentError/cancelled`` when the user closes the sheet or the task is cancelled;
        ///   ``UserAgentError/presentationFailed(_:)`` when the sheet cannot be shown, the redirect URI's scheme is not
        ///   supported on this OS version, or the redirect does not match `callback`.
        public nonisolated func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            try await present(url: url, callback: callback)
        }

        private func present(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            if Task.isCancelled { throw .cancelled }
            let attempt = Attempt()
            let result: Result<URL, UserAgentError> = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<URL, UserAgentError>, Never>) in
                    attempt.begin(continuation)
                    start(attempt, url: url, callback: callback)
                }
            } onCancel: {
                Task { @MainActor in attempt.cancel() }
            }
            switch result {
            case .success(let redirect): return redirect
            case .failure(let error): throw error
            }
        }

        /// Creates and starts the session for `attempt`, or finishes `attempt` with the reason it cannot start.
        private func start(_ attempt: Attempt, url: URL, callback: CallbackMatcher) {
            // Sendable and nonisolated on purpose: the system may call it on any thread.
            let completion: @Sendable (URL?, (any Error)?) -> Void = { callbackURL, error in
                let result = Self.outcome(callbackURL: callbackURL, error: error, callback: callback)
                Task { @MainActor in attempt.finish(result) }
            }
            let session: ASWebAuthenticationSession
            switch Self.makeSession(url: url, redirectURI: callback.redirectURI, completion: completion) {
            case .success(let made): session = made
            case .failure(let error):
                attempt.finish(.failure(error))
                return
            }
            session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            let context = PresentationContext(anchor: presentationAnchor)
            session.presentationContextProvider = context
            guard attempt.attach(session: session, context: context) else { return }
            if !session.start() {
                attempt.finish(.failure(.presentationFailed("ASWebAuthenticationSession refused to start")))
            }
        }

        /// A session whose callback matches `redirectURI`: the `Callback` API where available, else the callback URL
        /// scheme.
        private static func makeSession(
            url: URL,
            redirectURI: URL,
            completion: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) -> Result<ASWebAuthenticationSession, UserAgentError> {
            guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
                return .failure(.presentationFailed("the redirect URI has no scheme"))
            }
            switch scheme {
            case "https":
                guard let host = redirectURI.host, !host.isEmpty else {
                    return .failure(.presentationFailed("the https redirect URI has no host"))
                }
                let path = redirectURI.path.isEmpty ? "/" : redirectURI.path
                if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                    return .success(
                        ASWebAuthenticationSession(
                            url: url,
                            callback: .https(host: host, path: path),
                            completionHandler: completion
                        )
                    )
                }
                return .failure(.presentationFailed("https redirect URIs need iOS 17.4, macOS 14.4 or visionOS 1.1"))
            case "http":
                return .failure(.presentationFailed("http redirect URIs need LoopbackUserAgent"))
            default:
                if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                    return .success(
                        ASWebAuthenticationSession(
                            url: url,
                            callback: .customScheme(scheme),
                            completionHandler: completion
                        )
                    )
                }
                return .success(
                    ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
                )
            }
        }

        /// Maps what the session reported to the attempt's result.
        private nonisolated static func outcome(
            callbackURL: URL?,
            error: (any Error)?,
            callback: CallbackMatcher
        ) -> Result<URL, UserAgentError> {
            if let error {
                if let sessionError = error as? ASWebAuthenticationSessionError, sessionError.code == .canceledLogin {
                    return .failure(.cancelled)
                }
                return .failure(.presentationFailed(error.localizedDescription))
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

    /// One sign-in attempt: resumes its continuation exactly once, whichever of completion, start failure or task
    /// cancellation comes first, and keeps the session and its presentation context alive until then.
    @MainActor
    private final class Attempt {
        private var continuation: CheckedContinuation<Result<URL, UserAgentError>, Never>?
        private var pending: Result<URL, UserAgentError>?
        private var session: ASWebAuthenticationSession?
        private var context: PresentationContext?
        private var isFinished = false

        /// Installs the continuation; resumes it at once if the attempt already finished.
        func begin(_ continuation: CheckedContinuation<Result<URL, UserAgentError>, Never>) {
            if let pending {
                self.pending = nil
                continuation.resume(returning: pending)
            } else {
                self.continuation = continuation
            }
        }

        /// Keeps `session` (and its weakly held `context`) alive; `false` if the attempt already finished.
        func attach(session: ASWebAuthenticationSession, context: PresentationContext) -> Bool {
            guard !isFinished else { return false }
            self.session = session
            self.context = context
            return true
        }

        /// Ends the attempt with `result`; later calls are ignored.
        func finish(_ result: Result<URL, UserAgentError>) {
            guard !isFinished else { return }
            isFinished = true
            session = nil
            context = nil
            if let continuation {
                self.continuation = nil
                continuation.resume(returning: result)
            } else {
                pending = result
            }
        }

        /// Ends the attempt as cancelled and dismisses the sheet.
        func cancel() {
            let running = session
            finish(.failure(.cancelled))
            running?.cancel()
        }
    }

    /// Supplies the window that the session presents over. The session holds it weakly, so ``Attempt`` keeps it.
    @MainActor
    private final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        private let anchor: @MainActor () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
            super.init()
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            anchor()
        }
    }
#endif
