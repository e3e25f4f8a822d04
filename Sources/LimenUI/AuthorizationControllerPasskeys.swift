#if canImport(SwiftUI) && canImport(AuthenticationServices) && !os(watchOS)
    import AuthenticationServices
    import Foundation
    import Limen
    import LimenApple
    import LimenOIDC
    import SwiftUI

    /// The device's passkeys through SwiftUI's authorization controller (`@Environment(\.authorizationController)`), as
    /// a ``PasskeyAuthenticator``: the system's passkey sheet over the view's window, without a presentation anchor.
    /// It makes the same requests as LimenApple's `PlatformPasskeyAuthenticator`, and needs the same Associated
    /// Domains entitlement (`webcredentials:<rp id>`).
    ///
    /// ```swift
    /// struct PasskeyButton: View {
    ///     @Environment(\.authorizationController) private var controller
    ///     let client: AuthClient
    ///
    ///     var body: some View {
    ///         Button("Sign in with a passkey") {
    ///             Task {
    ///                 let passkeys = AuthorizationControllerPasskeys(controller: controller)
    ///                 _ = try? await client.signInWithPasskey(using: passkeys)
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, *)
    public struct AuthorizationControllerPasskeys: PasskeyAuthenticator {
        private let controller: AuthorizationController
        private let prefersImmediatelyAvailableCredentials: Bool

        /// Passkeys through `controller`, the view's environment value. With
        /// `prefersImmediatelyAvailableCredentials`, a sign-in shows no sheet when the device has no passkey for the
        /// server at once (no phone nearby, no security key) and fails with ``PasskeyError/noCredential`` instead, so
        /// the app can offer another way quietly.
        public init(controller: AuthorizationController, prefersImmediatelyAvailableCredentials: Bool = false) {
            self.controller = controller
            self.prefersImmediatelyAvailableCredentials = prefersImmediatelyAvailableCredentials
        }

        /// Makes a passkey for the options' user with the platform's registration request.
        public func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
            let ceremony = try PasskeyCeremony(creationOptions: options)
            guard let user = ceremony.user else { throw .failed("the options have no user") }
            let answer = await Self.perform(on: controller, options: []) { ceremony.registrationRequest(for: user) }
            return try answer.credential(for: .register).get()
        }

        /// Signs with one of the passkeys the options allow (any of this RP's when they name none).
        public func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
            let ceremony = try PasskeyCeremony(requestOptions: options)
            let immediate = prefersImmediatelyAvailableCredentials
            let options: ASAuthorizationController.RequestOptions =
                immediate ? .preferImmediatelyAvailableCredentials : []
            let answer = await Self.perform(on: controller, options: options) { ceremony.assertionRequest() }
            return try answer.credential(for: .authenticate).get()
        }

        /// Runs `request` through `controller` on the main actor, where its result (not `Sendable`) stays.
        @MainActor
        private static func perform(
            on controller: AuthorizationController,
            options: ASAuthorizationController.RequestOptions,
            request: @MainActor () -> ASAuthorizationRequest
        ) async -> PasskeyAnswer {
            do {
                switch try await controller.performRequests([request()], options: options) {
                case .passkeyRegistration(let registration): return PasskeyAnswer(registration)
                case .passkeyAssertion(let assertion): return PasskeyAnswer(assertion)
                default: return .otherCredential
                }
            } catch {
                let code = (error as? ASAuthorizationError)?.code
                // `preferImmediatelyAvailableCredentials` without one: not shown, so not the person's choice.
                if code == .notInteractive { return .noCredential }
                let cancelled = error is CancellationError || code == .canceled
                return .failed(cancelled: cancelled, reason: error.localizedDescription)
            }
        }
    }
#endif
