#if canImport(ObjectiveC) && canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation
    import Limen

    /// Limen for Objective-C (GrabID's "Objective-C Support"): configure, sign in, a current access token, the user's
    /// claims, sign out and the state, with completion blocks called once on the main queue and errors as `NSError`s
    /// in ``errorDomain`` whose codes are `LimenErrorCode`'s. Each call goes to a `CallbackClient`.
    ///
    /// ```objc
    /// NSError *error = nil;
    /// LMNAuthClient *limen = [LMNAuthClient clientFromMainBundleAndReturnError:&error];
    /// [limen signInFrom:self.view.window completion:^(NSString *userID, NSError *error) { … }];
    /// ```
    @objc(LMNAuthClient)
    public final class LMNAuthClient: NSObject, Sendable {
        /// The domain of every error a completion gets (`LimenError.errorDomain`).
        @objc public static let errorDomain = LimenError.errorDomain
        /// The user-info key of an error's stable string code, such as `network.timeout`.
        @objc public static let codeUserInfoKey = LimenError.codeUserInfoKey

        private let callbacks: CallbackClient

        /// A client of the provider at `issuer`, restoring its stored session.
        @objc public init(issuer: URL, clientID: String, redirectURI: URL?) {
            let client = AuthClient(
                configuration: Configuration(issuer: issuer, clientID: clientID, redirectURI: redirectURI))
            Task { await client.restore() }
            callbacks = CallbackClient(client: client)
        }

        /// A client configured by the `Limen` dictionary of a bundle's Info.plist (`Configuration(infoDictionary:)`).
        @objc public init(infoDictionary: [String: Any]) throws {
            callbacks = try CallbackClient(infoDictionary: infoDictionary)
        }

        /// A client configured by the `Limen` dictionary of the app's Info.plist (GrabID's `loadLoginSession`).
        @objc public static func clientFromMainBundle() throws -> LMNAuthClient {
            try LMNAuthClient(infoDictionary: Bundle.main.infoDictionary ?? [:])
        }

        /// Signs in in a web authentication session over `anchor` (a window of the foreground scene); the completion
        /// gets the user's ID, or the error (`LimenErrorCode.userCancelled` when the person closed the page). Call it
        /// on the main thread, as anything touching a window.
        @MainActor
        @objc public func signIn(
            from anchor: ASPresentationAnchor,
            completion: @escaping @Sendable (String?, NSError?) -> Void
        ) {
            let agent = WebAuthenticationSessionUserAgent { anchor }
            callbacks.signIn(using: agent) { user, error in completion(user?.id, error) }
        }

        /// A valid access token, refreshed when needed; `nil` and no error when nobody is signed in.
        @objc public func accessToken(completion: @escaping @Sendable (String?, NSError?) -> Void) {
            callbacks.accessToken { token, error in completion(token, error) }
        }

        /// The signed-in user's claims from the UserInfo endpoint, as property-list objects.
        @objc public func userInfo(completion: @escaping @Sendable ([String: Any]?, NSError?) -> Void) {
            callbacks.userInfo { info, error in completion(info?.claims.mapValues(\.foundationObject), error) }
        }

        /// Signs out, revoking the refresh token; the error says the provider could not be told (signed out anyway).
        @objc public func signOut(completion: @escaping @Sendable (NSError?) -> Void) {
            callbacks.signOut { error in completion(error) }
        }

        /// Calls `block` on the main queue with whether someone is signed in and their ID, now and after each change,
        /// until the returned observation's `cancel` is called.
        @objc public func observeState(
            _ block: @escaping @Sendable (Bool, String?) -> Void
        ) -> LMNStateObservation {
            LMNStateObservation(callbacks.observeState { state in block(state.auth.isAuthenticated, state.user.id) })
        }
    }

    /// A running `-[LMNAuthClient observeState:]`.
    @objc(LMNStateObservation)
    public final class LMNStateObservation: NSObject, Sendable {
        private let observation: StateObservation

        /// Wraps `observation`.
        init(_ observation: StateObservation) {
            self.observation = observation
        }

        /// Stops the calls.
        @objc public func cancel() {
            observation.cancel()
        }
    }
#endif
