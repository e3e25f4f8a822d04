#if canImport(AuthenticationServices) && !os(tvOS)
    import AuthenticationServices
    import Foundation
    import Limen

    /// A ``UserAgent`` that shows the provider's sign-in page in an `ASWebAuthenticationSession`.
    ///
    /// Works with custom-scheme redirect URIs (`com.example.app:/callback`) everywhere, and with `https` redirect URIs
    /// on iOS 17.4, macOS 14.4, visionOS 1.1 and watchOS 10.4 or later. An `https` callback is only delivered to the
    /// app when the redirect's host is one of its associated domains **for the `webcredentials` service**: the app's
    /// entitlement lists `webcredentials:id.example.com`, and the host serves an `apple-app-site-association` file
    /// naming the app under `webcredentials` (an `applinks` entry alone is not enough).
    /// For `http://127.0.0.1` loopback redirects use `LoopbackUserAgent` instead.
    ///
    /// The user closing the sheet, or cancelling the task that awaits ``authorize(url:callback:)``, ends the attempt
    /// with ``UserAgentError/cancelled``; cancelling the task also dismisses the sheet.
    ///
    /// The presentation anchor must be a window of a scene in the foreground, such as the window of the view the user
    /// tapped. A new `ASPresentationAnchor()` belongs to no scene, and the sheet then fails to appear. watchOS
    /// presents the session itself and takes no anchor.
    ///
    /// ```swift
    /// // In a view controller (iOS), from a view that is on screen:
    /// guard let window = view.window else { return }
    /// let agent = WebAuthenticationSessionUserAgent(prefersEphemeralWebBrowserSession: true) { window }
    /// let user = try await client.signIn(using: agent)
    /// ```
    ///
    /// tvOS has no sign-in sheet for web pages: sign in there with the device grant
    /// (`AuthClient.signInWithDeviceCode(showCode:)`), which shows a code to enter on a phone or computer.
    ///
    /// The class is isolated to the main actor, which makes it `Sendable`; ``authorize(url:callback:)`` may be called
    /// from any context and hops to the main actor itself.
    @MainActor
    public final class WebAuthenticationSessionUserAgent: UserAgent {
        /// Whether the browser is asked not to share cookies and other data with the user's normal browsing
        /// (no single sign-on with Safari, and no "wants to use … to sign in" prompt).
        public let prefersEphemeralWebBrowserSession: Bool
        #if !os(watchOS)
            private let presentationAnchor: @MainActor () -> ASPresentationAnchor

            /// Creates a user agent.
            ///
            /// - Parameters:
            ///   - prefersEphemeralWebBrowserSession: Ask the browser for a private session (see
            ///     ``prefersEphemeralWebBrowserSession``).
            ///   - presentationAnchor: Returns the window to present the sign-in sheet over: the window in the
            ///     foreground scene that the user acted in (`UIWindow` on iOS and visionOS, `NSWindow` on macOS).
            ///     Called on the main actor each time a sheet is shown.
            public init(
                prefersEphemeralWebBrowserSession: Bool = false,
                presentationAnchor: @escaping @MainActor () -> ASPresentationAnchor
            ) {
                self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                self.presentationAnchor = presentationAnchor
            }
        #else
            /// Creates a user agent; watchOS presents the session itself.
            public init(prefersEphemeralWebBrowserSession: Bool = false) {
                self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            }
        #endif

        /// Shows `url` and returns the redirect that `callback` accepts.
        ///
        /// - Throws: ``UserAgentError/cancelled`` when the user closes the sheet or the task is cancelled;
        ///   ``UserAgentError/presentationFailed(_:)`` when the sheet cannot be shown, the redirect URI's scheme is not
        ///   supported on this OS version, or the redirect does not match `callback`.
        public nonisolated func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            try await present(url: url, callback: callback)
        }

        private func present(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            let result = await PresentationAttempt<URL>.run { attempt in
                start(attempt, url: url, callback: callback)
            }
            return try result.get()
        }

        /// Creates and starts the session for `attempt`, or finishes `attempt` with the reason it cannot start.
        private func start(_ attempt: PresentationAttempt<URL>, url: URL, callback: CallbackMatcher) {
            // Sendable and nonisolated on purpose: the system may call it on any thread.
            let completion: @Sendable (URL?, (any Error)?) -> Void = { callbackURL, error in
                let failure = error.map { error in
                    (
                        isCancellation: (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin,
                        description: error.localizedDescription
                    )
                }
                let result = WebSessionCallback.outcome(callbackURL: callbackURL, failure: failure, callback: callback)
                Task { @MainActor in attempt.finish(result) }
            }
            let chosen: WebSessionCallback
            switch Self.callback(for: callback.redirectURI) {
            case .success(let callback): chosen = callback
            case .failure(let error): return attempt.finish(.failure(error))
            }
            guard let session = Self.makeSession(url: url, callback: chosen, completion: completion) else {
                return attempt.finish(.failure(.presentationFailed("this redirect URI needs a newer OS version")))
            }
            session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            var retained: [AnyObject] = [session]
            #if !os(watchOS)
                let context = PresentationContext(anchor: presentationAnchor)
                session.presentationContextProvider = context
                retained.append(context)
            #endif
            guard attempt.attach(keeping: retained, cancel: { session.cancel() }) else { return }
            if !session.start() {
                attempt.finish(.failure(.presentationFailed("ASWebAuthenticationSession refused to start")))
            }
        }

        /// The callback for `redirectURI` on this system.
        private static func callback(for redirectURI: URL) -> Result<WebSessionCallback, UserAgentError> {
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4, *) {
                return WebSessionCallback.choose(for: redirectURI, hasCallbackAPI: true)
            }
            return WebSessionCallback.choose(for: redirectURI, hasCallbackAPI: false)
        }

        /// A session for `callback`, or `nil` when this system lacks the API `callback` needs.
        private static func makeSession(
            url: URL,
            callback: WebSessionCallback,
            completion: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) -> ASWebAuthenticationSession? {
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4, *) {
                switch callback {
                case .customScheme(let scheme):
                    return ASWebAuthenticationSession(
                        url: url, callback: .customScheme(scheme), completionHandler: completion)
                case .https(let host, let path):
                    return ASWebAuthenticationSession(
                        url: url, callback: .https(host: host, path: path), completionHandler: completion)
                case .callbackURLScheme:
                    break
                }
            }
            guard case .callbackURLScheme(let scheme) = callback else { return nil }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }
    }

    #if !os(watchOS)
        /// Supplies the window that the session presents over. The session holds it weakly, so the attempt keeps it.
        ///
        /// `@preconcurrency`: the protocol is `@MainActor` in current SDKs but not in the earlier ones that
        /// `swift-tools-version` 6.2 still admits, where a main-actor conformance would otherwise be an error; the
        /// session calls it on the main thread in both.
        @MainActor
        private final class PresentationContext: NSObject,
            @preconcurrency ASWebAuthenticationPresentationContextProviding
        {
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
#endif
