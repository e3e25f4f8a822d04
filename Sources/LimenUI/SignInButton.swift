#if canImport(SwiftUI) && canImport(AuthenticationServices)
    import AuthenticationServices
    import Limen
    import LimenUIModel
    import SwiftUI

    /// A button that signs in (AppleSignInKit's `AppleSignInButton`): a spinner while its ``SignInModel`` signs in,
    /// and the app's handlers when the sign-in ends. Sign in with Apple and the provider's page use the view's
    /// environment (its authorization controller and web authentication session), so no window is passed anywhere.
    ///
    /// ```swift
    /// SignInButton("Sign in with Apple", model: signIn, action: .apple())
    ///     .onSignIn { user in print("welcome \(user.email ?? "")") }
    ///     .onError { error in print(error.code) }
    ///     .onCancel { print("closed") }
    /// ```
    public struct SignInButton: View {
        private let title: String
        private let model: SignInModel
        private let action: SignInAction
        private var handlers = SignInHandlers()
        @Environment(\.webAuthenticationSession) private var webSession
        @Environment(\.authorizationController) private var authorizationController
        @Environment(\.limenStyle) private var style

        /// A button titled `title` that runs `action` through `model` (share one model between a screen's buttons).
        public init(_ title: String, model: SignInModel, action: SignInAction) {
            (self.title, self.model, self.action) = (title, model, action)
        }

        public var body: some View {
            Button {
                let environment = SignInEnvironment(
                    webSession: webSession, authorizationController: authorizationController)
                Task { handlers.deliver(await model.signIn(action, in: environment)) }
            } label: {
                if model.isSigningIn { ProgressView() } else { Text(title).font(style.bodyFont) }
            }
            .disabled(model.isSigningIn)
            .tint(style.accent)
            .accessibilityLabel(title)
            .accessibilityValue(model.accessibilityValue ?? "")
        }

        /// Calls `handler` with the user after a sign-in.
        public func onSignIn(_ handler: @escaping @MainActor (AuthState.User) -> Void) -> SignInButton {
            var copy = self
            copy.handlers.onSignIn = handler
            return copy
        }

        /// Calls `handler` with the error after a failed sign-in (a closed sheet is no error: see ``onCancel(_:)``).
        public func onError(_ handler: @escaping @MainActor (LimenError) -> Void) -> SignInButton {
            var copy = self
            copy.handlers.onError = handler
            return copy
        }

        /// Calls `handler` when the person closes Apple's sheet or the provider's page.
        public func onCancel(_ handler: @escaping @MainActor () -> Void) -> SignInButton {
            var copy = self
            copy.handlers.onCancel = handler
            return copy
        }
    }

    extension SignInModel {
        /// Signs in with the result of Apple's own `SignInWithAppleButton`, whose request carried `nonce`'s
        /// ``AppleSignInNonce/sha256``: the same as ``SignInAction/apple(_:nonce:allowMigration:)`` with the
        /// credential mapped by `AppleIDCredential(_:)`.
        ///
        /// ```swift
        /// SignInWithAppleButton(.signIn) { request in
        ///     request.requestedScopes = [.fullName, .email]
        ///     request.nonce = nonce.sha256
        /// } onCompletion: { result in
        ///     Task { await signIn.signIn(withApple: result, nonce: nonce) }
        /// }
        /// ```
        @discardableResult
        public func signIn(
            withApple result: Result<ASAuthorization, any Error>,
            nonce: AppleSignInNonce,
            allowMigration: Bool? = nil
        ) async -> SignInOutcome {
            let credential: Result<AppleIDCredential, UserAgentError>
            switch result {
            case .success(let authorization):
                if let apple = authorization.credential as? ASAuthorizationAppleIDCredential {
                    credential = Result { () throws(UserAgentError) in try AppleIDCredential(apple) }
                } else {
                    credential = .failure(.presentationFailed("no Apple ID credential"))
                }
            case .failure(let error):
                let canceled = (error as? ASAuthorizationError)?.code == .canceled
                credential = .failure(
                    (canceled ? AppleSheetFailure.canceled : .other(error.localizedDescription)).userAgentError)
            }
            return await signIn(.apple(credential, nonce: nonce, allowMigration: allowMigration))
        }
    }
#endif
