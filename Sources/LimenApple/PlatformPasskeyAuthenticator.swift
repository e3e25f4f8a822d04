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
            return try await PasskeySheet.present(autoFill: false, anchor: presentationAnchor) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                    relyingPartyIdentifier: ceremony.relyingPartyID)
                let request = provider.createCredentialRegistrationRequest(
                    challenge: ceremony.challenge, name: user.name, userID: user.id)
                request.userVerificationPreference = ceremony.requiresUserVerification ? .required : .preferred
                if #available(iOS 17.4, macOS 14.4, tvOS 17.4, *) {
                    request.excludedCredentials = ceremony.credentialIDs.map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                    }
                }
                return request
            }
        }

        /// Signs with one of the passkeys the options allow (any of this RP's when they name none).
        public func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
            let ceremony = try PasskeyCeremony(requestOptions: options)
            return try await PasskeySheet.present(autoFill: offersAutoFill, anchor: presentationAnchor) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                    relyingPartyIdentifier: ceremony.relyingPartyID)
                let request = provider.createCredentialAssertionRequest(challenge: ceremony.challenge)
                request.allowedCredentials = ceremony.credentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
                request.userVerificationPreference = ceremony.requiresUserVerification ? .required : .preferred
                return request
            }
        }
    }

    /// The delegate of one passkey request: an `ASAuthorizationController` for it, finishing its
    /// `PresentationAttempt` with the credential's JSON (which keeps the delegate and controller alive until then).
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    @MainActor
    private final class PasskeySheet: NSObject {
        private let attempt: PresentationAttempt<JSONValue>
        private let anchor: @MainActor () -> ASPresentationAnchor

        private init(attempt: PresentationAttempt<JSONValue>, anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.attempt = attempt
            self.anchor = anchor
            super.init()
        }

        /// Performs the request `makeRequest` returns (in the keyboard's suggestions when `autoFill` and the system
        /// has them) and returns the credential's JSON.
        static func present(
            autoFill: Bool,
            anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor,
            makeRequest: @escaping @MainActor () -> ASAuthorizationRequest
        ) async throws(PasskeyError) -> JSONValue {
            let result = await PresentationAttempt<JSONValue>.run { attempt in
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
            switch result {
            case .success(let json): return json
            case .failure(.cancelled): throw .cancelled
            case .failure(let failure): throw .failed(failure.errorDescription ?? failure.code)
            }
        }

        /// The credential as WebAuthn's JSON; `nil` for one that is not a platform passkey's.
        static func json(of credential: any ASAuthorizationCredential) -> JSONValue? {
            if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                let attestation = registration.rawAttestationObject
            {
                return PasskeyCeremony.registrationJSON(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: attestation)
            }
            guard let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature
            else { return nil }
            return PasskeyCeremony.assertionJSON(
                credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                authenticatorData: authenticatorData, signature: signature, userHandle: assertion.userID)
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
            guard let json = Self.json(of: authorization.credential) else {
                return attempt.finish(.failure(.presentationFailed("the system gave no passkey credential")))
            }
            attempt.finish(.success(json))
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
