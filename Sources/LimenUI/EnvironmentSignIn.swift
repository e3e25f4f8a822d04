#if canImport(SwiftUI) && canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation
    import Limen
    import LimenApple
    import LimenUIModel
    import SwiftUI

    /// A ``UserAgent`` over SwiftUI's web authentication session (`@Environment(\.webAuthenticationSession)`): the
    /// provider's page without window plumbing. Custom-scheme and `https` redirect URIs; `http://127.0.0.1` loopback
    /// redirects need LimenLoopback instead.
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    struct WebSessionUserAgent: UserAgent {
        /// The environment's session.
        let session: WebAuthenticationSession

        func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            let expected: ASWebAuthenticationSession.Callback
            switch WebSessionCallback.choose(for: callback.redirectURI, hasCallbackAPI: true) {
            case .success(.customScheme(let scheme)): expected = .customScheme(scheme)
            case .success(.https(let host, let path)): expected = .https(host: host, path: path)
            case .success(.callbackURLScheme(let scheme)): expected = .customScheme(scheme)
            case .failure(let error): throw error
            }
            var answer: URL?
            var failure: (isCancellation: Bool, description: String)?
            do {
                answer = try await session.authenticate(using: url, callback: expected, additionalHeaderFields: [:])
            } catch {
                let cancelled =
                    error is CancellationError || (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin
                failure = (cancelled, error.localizedDescription)
            }
            return try WebSessionCallback.outcome(callbackURL: answer, failure: failure, callback: callback).get()
        }
    }

    /// Sign in with Apple through SwiftUI's authorization controller (`@Environment(\.authorizationController)`):
    /// Apple's sheet over the view's window, without window plumbing.
    struct AuthorizationControllerSheet: AppleIDAuthorizing {
        /// The environment's controller.
        let controller: AuthorizationController

        func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
            try await Self.request(from: controller, hashedNonce: hashedNonce)
        }

        /// Asks `controller` on the main actor, where its result (not `Sendable`) stays.
        @MainActor
        private static func request(
            from controller: AuthorizationController,
            hashedNonce: String
        ) async throws(UserAgentError) -> AppleIDCredential {
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = [.fullName, .email]
            request.nonce = hashedNonce
            let result: ASAuthorizationResult
            do {
                result = try await controller.performRequest(request)
            } catch {
                let canceled = error is CancellationError || (error as? ASAuthorizationError)?.code == .canceled
                throw (canceled ? AppleSheetFailure.canceled : .other(error.localizedDescription)).userAgentError
            }
            guard case .appleID(let credential) = result else { throw .presentationFailed("no Apple ID credential") }
            return try AppleIDCredential(credential)
        }
    }

    /// A user agent over `session`, or `nil` before the OS versions whose session takes a callback.
    func webSessionUserAgent(over session: WebAuthenticationSession) -> (any UserAgent)? {
        if #available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *) {
            return WebSessionUserAgent(session: session)
        }
        return nil
    }

    extension SignInEnvironment {
        /// What a view's environment offers a sign-in: its web authentication session (where the OS has the
        /// callback form) and its authorization controller.
        @MainActor
        init(webSession: WebAuthenticationSession, authorizationController: AuthorizationController) {
            self.init(
                userAgent: webSessionUserAgent(over: webSession),
                appleAuthorization: AuthorizationControllerSheet(controller: authorizationController))
        }
    }
#endif
