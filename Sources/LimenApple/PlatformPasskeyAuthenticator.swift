#if canImport(AuthenticationServices) && !os(watchOS)
    import AuthenticationServices
    import Foundation
    import Limen
    import LimenOIDC

    /// The device's passkeys — iCloud Keychain, a password manager, a security key or a phone nearby, as the system
    /// sheet offers them — as a ``PasskeyAuthenticator``: `ASAuthorizationPlatformPublicKeyCredentialProvider` with
    /// the server's options (``PasskeyCeremony`` reads them), its credential written back as WebAuthn's JSON.
    ///
    /// The app must list the server's RP ID (`webauthn_rp_id`, the issuer's host by default) under the Associated
    /// Domains entitlement as `webcredentials:<rp id>`, and the server must serve that domain's
    /// `apple-app-site-association`.
    ///
    /// ```swift
    /// let passkeys = PlatformPasskeyAuthenticator { view.window! }
    /// try await client.registerPasskey(name: UIDevice.current.name, using: passkeys)
    /// let user = try await client.signInWithPasskey(using: passkeys)
    /// ```
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    public struct PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor
        private let offersAutoFill: Bool

        /// Passkeys shown in a sheet over the window `presentationAnchor` returns (called on the main actor each
        /// time). With `offersAutoFill` (iOS 16 and later), a sign-in is offered in the keyboard's suggestions of a
        /// field whose `textContentType` is `.username` instead, until the person picks a passkey or the task is
        /// cancelled (conditional mediation); a registration always shows the sheet.
        public init(
            offersAutoFill: Bool = false,
            presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.offersAutoFill = offersAutoFill
            self.presentationAnchor = presentationAnchor
        }

        /// Makes a passkey for the options' user with the platform's registration request.
        public func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
            let ceremony = try PasskeyCeremony(creationOptions: options)
            guard let user = ceremony.user else { throw .failed("the options have no user") }
            return try await PasskeySheet.present(mode: .register, autoFill: false, anchor: presentationAnchor) {
                ceremony.registrationRequest(for: user)
            }
        }

        /// Signs with one of the passkeys the options allow (any of this RP's when they name none).
        public func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
            let ceremony = try PasskeyCeremony(requestOptions: options)
            return try await PasskeySheet.present(
                mode: .authenticate, autoFill: offersAutoFill, anchor: presentationAnchor
            ) {
                ceremony.assertionRequest()
            }
        }
    }

    /// The delegate of one passkey request: an `ASAuthorizationController` for it, finishing its
    /// `PresentationAttempt` with the credential's JSON (which keeps the delegate and controller alive until then).
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    @MainActor
    private final class PasskeySheet: NSObject {
        private let attempt: PresentationAttempt<PasskeyAnswer>
        private let anchor: @MainActor () -> ASPresentationAnchor

        private init(
            attempt: PresentationAttempt<PasskeyAnswer>, anchor: @escaping @MainActor () -> ASPresentationAnchor
        ) {
            self.attempt = attempt
            self.anchor = anchor
            super.init()
        }

        /// Performs the request `makeRequest` returns, a ceremony of `mode` (in the keyboard's suggestions when
        /// `autoFill` and the system has them), and returns the credential's JSON.
        static func present(
            mode: PasskeyCollector.Mode,
            autoFill: Bool,
            anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor,
            makeRequest: @escaping @MainActor () -> ASAuthorizationRequest
        ) async throws(PasskeyError) -> JSONValue {
            let result = await PresentationAttempt<PasskeyAnswer>.run { attempt in
                let controller = ASAuthorizationController(authorizationRequests: [makeRequest()])
                let sheet = PasskeySheet(attempt: attempt, anchor: anchor)
                controller.delegate = sheet
                controller.presentationContextProvider = sheet
                guard attempt.attach(keeping: [sheet, controller], cancel: { controller.cancel() }) else { return }
                #if os(iOS) || os(visionOS)
                    if autoFill, #available(iOS 16.0, *) { return controller.performAutoFillAssistedRequests() }
                #endif
                controller.performRequests()
            }
            let answer: PasskeyAnswer =
                switch result {
                case .success(let answer): answer
                case .failure(.cancelled): .failed(cancelled: true, reason: "cancelled")
                case .failure(let failure): .failed(cancelled: false, reason: failure.errorDescription ?? failure.code)
                }
            return try answer.credential(for: mode).get()
        }
    }

    /// `@preconcurrency`: the delegate protocols are `@MainActor` in current SDKs but not in earlier ones; the
    /// controller calls them on the main thread in both.
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeySheet: @preconcurrency ASAuthorizationControllerDelegate {
        func authorizationController(
            controller: ASAuthorizationController,
            didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            attempt.finish(.success(PasskeyAnswer(authorization.credential)))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            let canceled = (error as? ASAuthorizationError)?.code == .canceled
            attempt.finish(.failure(canceled ? .cancelled : .presentationFailed(error.localizedDescription)))
        }
    }

    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeySheet: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            anchor()
        }
    }
#endif
