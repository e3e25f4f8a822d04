#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || os(tvOS))
    import AuthenticationServices
    import Foundation
    import Limen

    extension AuthClient {
        /// Shows Apple's Sign in with Apple sheet over the window `presentationAnchor` returns and signs in with the
        /// credential: ``AuthClient/signInWithApple(using:allowMigration:)`` with an ``AppleIDAuthorizationSheet``.
        ///
        /// ```swift
        /// // In a view controller, from a view that is on screen:
        /// guard let window = view.window else { return }
        /// let descriptor = try await client.signInWithApple(allowMigration: nil) { window }
        /// ```
        @discardableResult
        public func signInWithApple(
            allowMigration: Bool?,
            presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws(LimenError) -> LoginDescriptor {
            try await signInWithApple(
                using: AppleIDAuthorizationSheet(presentationAnchor: presentationAnchor), allowMigration: allowMigration
            )
        }
    }

    /// Apple's Sign in with Apple sheet (`ASAuthorizationController` with an Apple ID request for the name and email
    /// address), for ``Configuration/appleAuthorization``.
    public struct AppleIDAuthorizationSheet: AppleIDAuthorizing {
        private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// A sheet shown over the window `presentationAnchor` returns (the foreground scene's window the person acted
        /// in), called on the main actor each time.
        public init(presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.presentationAnchor = presentationAnchor
        }

        /// Shows the sheet for a request whose nonce is `hashedNonce` and returns Apple's credential.
        public func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
            try await AppleSignInSheet.present(hashedNonce: hashedNonce, anchor: presentationAnchor)
        }
    }

    /// Apple's answer about a credential, from `ASAuthorizationAppleIDProvider`, for
    /// ``Configuration/appleCredentialStates`` (then `checkCredentialState()` asks Apple) or
    /// ``AuthClient/checkCredentialState(using:)``.
    public struct AppleIDProviderCredentialStates: AppleCredentialStateSource {
        /// The states Apple keeps for this app's team.
        public init() {}

        /// Asks `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:completion:)`.
        /// - Throws: Apple's error, or `CancellationError` for a state this SDK does not know yet (the session is
        ///   then kept).
        public func credentialState(forUser user: String) async throws -> AppleCredentialState {
            try await withCheckedThrowingContinuation { continuation in
                ASAuthorizationAppleIDProvider().getCredentialState(forUserID: user) { state, error in
                    if let error { return continuation.resume(throwing: error) }
                    switch state {
                    case .authorized: continuation.resume(returning: .authorized)
                    case .revoked: continuation.resume(returning: .revoked)
                    case .notFound: continuation.resume(returning: .notFound)
                    case .transferred: continuation.resume(returning: .transferred)
                    @unknown default: continuation.resume(throwing: CancellationError())
                    }
                }
            }
        }
    }

    /// One Sign in with Apple sheet: an `ASAuthorizationController` for an Apple ID request with the nonce's hash,
    /// resumed exactly once by its delegate.
    @MainActor
    private final class AppleSignInSheet: NSObject {
        private var continuation: CheckedContinuation<AppleIDCredential, any Error>?
        /// The controller holds its delegate weakly: the sheet keeps itself (and the controller) until it finishes.
        private var inFlight: (sheet: AppleSignInSheet, controller: ASAuthorizationController)?
        private let anchor: @MainActor () -> ASPresentationAnchor

        private init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
            super.init()
        }

        /// Shows the sheet and returns Apple's credential.
        /// - Throws: ``UserAgentError/cancelled`` or ``UserAgentError/presentationFailed(_:)``.
        static func present(
            hashedNonce: String,
            anchor: @escaping @MainActor () -> ASPresentationAnchor
        ) async throws(UserAgentError) -> AppleIDCredential {
            let sheet = AppleSignInSheet(anchor: anchor)
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = [.fullName, .email]
            request.nonce = hashedNonce
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = sheet
            controller.presentationContextProvider = sheet
            do {
                return try await withCheckedThrowingContinuation { continuation in
                    sheet.continuation = continuation
                    sheet.inFlight = (sheet, controller)
                    controller.performRequests()
                }
            } catch let error as UserAgentError {
                throw error
            } catch let error as ASAuthorizationError where error.code == .canceled {
                throw .cancelled
            } catch {
                throw .presentationFailed(error.localizedDescription)
            }
        }

        private func finish(_ result: Result<AppleIDCredential, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
            inFlight = nil
        }
    }

    extension AppleSignInSheet: @preconcurrency ASAuthorizationControllerDelegate {
        func authorizationController(
            controller: ASAuthorizationController,
            didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            guard let apple = authorization.credential as? ASAuthorizationAppleIDCredential,
                let tokenData = apple.identityToken, let token = String(data: tokenData, encoding: .utf8)
            else {
                return finish(.failure(UserAgentError.presentationFailed("Apple gave no identity token")))
            }
            let name = apple.fullName.map { PersonNameComponentsFormatter().string(from: $0) }
            finish(
                .success(
                    AppleIDCredential(
                        user: apple.user, identityToken: token,
                        authorizationCode: apple.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
                        email: apple.email, fullName: name?.isEmpty == false ? name : nil)))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            finish(.failure(error))
        }
    }

    extension AppleSignInSheet: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            anchor()
        }
    }
#endif
