#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation
    import Limen

    extension AppleIDCredential {
        /// The credential Apple gave: from your own `ASAuthorizationController`, or the result of SwiftUI's
        /// `SignInWithAppleButton`, so no app maps the fields itself.
        ///
        /// ```swift
        /// SignInWithAppleButton(.signIn) { request in
        ///     request.requestedScopes = [.fullName, .email]
        ///     request.nonce = nonce.sha256
        /// } onCompletion: { result in
        ///     if case .success(let authorization) = result,
        ///         let apple = authorization.credential as? ASAuthorizationAppleIDCredential,
        ///         let credential = try? AppleIDCredential(apple)
        ///     {
        ///         Task { try await client.signInWithApple(credential, nonce: nonce, allowMigration: nil) }
        ///     }
        /// }
        /// ```
        /// - Throws: ``UserAgentError/presentationFailed(_:)`` when the credential holds no identity token.
        public init(_ credential: ASAuthorizationAppleIDCredential) throws(UserAgentError) {
            self = try Self.fromAuthorization(
                user: credential.user, identityToken: credential.identityToken,
                authorizationCode: credential.authorizationCode, email: credential.email, fullName: credential.fullName
            ).get()
        }
    }
#endif
