#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation
    import Limen

    #if !os(watchOS)
        extension AuthClient {
            /// Shows Apple's Sign in with Apple sheet over the window `presentationAnchor` returns and signs in with
            /// the credential: ``AuthClient/signInWithApple(using:allowMigration:)`` with an
            /// ``AppleIDAuthorizationSheet``.
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
                    using: AppleIDAuthorizationSheet(presentationAnchor: presentationAnchor),
                    allowMigration: allowMigration
                )
            }
        }
    #endif

    /// Apple's Sign in with Apple sheet (`ASAuthorizationController` with an Apple ID request for the name and email
    /// address), for ``Configuration/appleAuthorization``. Cancelling the task that awaits it dismisses the sheet.
    public struct AppleIDAuthorizationSheet: AppleIDAuthorizing {
        #if !os(watchOS)
            private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor

            /// A sheet shown over the window `presentationAnchor` returns (the foreground scene's window the person
            /// acted in), called on the main actor each time.
            public init(presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
                self.presentationAnchor = presentationAnchor
            }
        #else
            /// A sheet that watchOS presents itself.
            public init() {}
        #endif

        /// Shows the sheet for a request whose nonce is `hashedNonce` and returns Apple's credential.
        /// - Throws: ``UserAgentError/cancelled`` when the person closes the sheet or the task is cancelled,
        ///   ``UserAgentError/presentationFailed(_:)`` when Apple refuses or gives no identity token.
        public func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
            #if !os(watchOS)
                try await AppleSignInSheet.present(hashedNonce: hashedNonce, anchor: presentationAnchor)
            #else
                try await AppleSignInSheet.present(hashedNonce: hashedNonce)
            #endif
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

    /// The delegate of one Sign in with Apple sheet: an `ASAuthorizationController` for an Apple ID request with the
    /// nonce's hash, finishing its ``PresentationAttempt`` (which keeps it and the controller alive until then).
    @MainActor
    private final class AppleSignInSheet: NSObject {
        private let attempt: PresentationAttempt<AppleIDCredential>
        #if !os(watchOS)
            private let anchor: @MainActor () -> ASPresentationAnchor

            private init(
                attempt: PresentationAttempt<AppleIDCredential>, anchor: @escaping @MainActor () -> ASPresentationAnchor
            ) {
                self.attempt = attempt
                self.anchor = anchor
                super.init()
            }

            /// Shows the sheet over the window `anchor` returns and returns Apple's credential.
            static func present(
                hashedNonce: String,
                anchor: @escaping @MainActor () -> ASPresentationAnchor
            ) async throws(UserAgentError) -> AppleIDCredential {
                try await present(hashedNonce: hashedNonce) { attempt, controller in
                    let sheet = AppleSignInSheet(attempt: attempt, anchor: anchor)
                    controller.presentationContextProvider = sheet
                    return sheet
                }
            }
        #else
            private init(attempt: PresentationAttempt<AppleIDCredential>) {
                self.attempt = attempt
                super.init()
            }

            /// Shows the sheet and returns Apple's credential.
            static func present(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
                try await present(hashedNonce: hashedNonce) { attempt, _ in AppleSignInSheet(attempt: attempt) }
            }
        #endif

        /// Runs one attempt with the delegate `makeSheet` returns for the controller.
        private static func present(
            hashedNonce: String,
            makeSheet:
                @MainActor (PresentationAttempt<AppleIDCredential>, ASAuthorizationController) -> AppleSignInSheet
        ) async throws(UserAgentError) -> AppleIDCredential {
            let result = await PresentationAttempt<AppleIDCredential>.run { attempt in
                let request = ASAuthorizationAppleIDProvider().createRequest()
                request.requestedScopes = [.fullName, .email]
                request.nonce = hashedNonce
                let controller = ASAuthorizationController(authorizationRequests: [request])
                let sheet = makeSheet(attempt, controller)
                controller.delegate = sheet
                guard attempt.attach(keeping: [sheet, controller], cancel: { controller.cancel() }) else { return }
                controller.performRequests()
            }
            return try result.get()
        }
    }

    /// `@preconcurrency`: the delegate protocols are `@MainActor` in current SDKs but not in the earlier ones that
    /// `swift-tools-version` 6.2 still admits; the controller calls them on the main thread in both.
    extension AppleSignInSheet: @preconcurrency ASAuthorizationControllerDelegate {
        func authorizationController(
            controller: ASAuthorizationController,
            didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            guard let apple = authorization.credential as? ASAuthorizationAppleIDCredential else {
                return attempt.finish(.failure(.presentationFailed("Apple gave no Apple ID credential")))
            }
            attempt.finish(
                AppleIDCredential.fromAuthorization(
                    user: apple.user,
                    identityToken: apple.identityToken,
                    authorizationCode: apple.authorizationCode,
                    email: apple.email,
                    fullName: apple.fullName
                ))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            let canceled = (error as? ASAuthorizationError)?.code == .canceled
            let failure: AppleSheetFailure = canceled ? .canceled : .other(error.localizedDescription)
            attempt.finish(.failure(failure.userAgentError))
        }
    }

    #if !os(watchOS)
        extension AppleSignInSheet: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
            func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
                anchor()
            }
        }
    #endif
#endif
