import Limen

/// What a sign-in button does: Sign in with Apple, the provider's page in a web session, or the app's own call.
///
/// ```swift
/// let apple = SignInAction.apple(allowMigration: true)
/// let browser = SignInAction.browser(options: SignInOptions(loginHint: "ada@example.com"))
/// let custom = SignInAction { client throws(LimenError) in try await client.signIn(using: browser) }
/// ```
public struct SignInAction: Sendable {
    /// Signs `client` in with what the environment offers.
    let perform: @Sendable (AuthClient, SignInEnvironment) async throws(LimenError) -> Void

    /// An action that runs `perform` (any of the client's sign-in calls).
    public init(_ perform: @escaping @Sendable (AuthClient) async throws(LimenError) -> Void) {
        self.perform = { client, _ throws(LimenError) in try await perform(client) }
    }

    private init(perform: @escaping @Sendable (AuthClient, SignInEnvironment) async throws(LimenError) -> Void) {
        self.perform = perform
    }

    /// Sign in with Apple (`AuthClient.signInWithApple(using:allowMigration:)`) through the environment's Apple
    /// sheet, or else the configuration's ``Configuration/appleAuthorization``.
    public static func apple(allowMigration: Bool? = nil) -> SignInAction {
        SignInAction { client, environment throws(LimenError) in
            guard let sheet = environment.appleAuthorization ?? client.configuration.appleAuthorization else {
                throw .configuration(.missingKey("appleAuthorization"))
            }
            try await client.signInWithApple(using: sheet, allowMigration: allowMigration)
        }
    }

    /// Sign in with a credential Apple already gave the app (the result of SwiftUI's `SignInWithAppleButton`, mapped
    /// by LimenApple's `AppleIDCredential(_:)`), whose request carried `nonce`'s ``AppleSignInNonce/sha256``. A
    /// failed or closed Apple sheet is passed as its ``UserAgentError`` (``UserAgentError/cancelled``: a cancel).
    public static func apple(
        _ credential: Result<AppleIDCredential, UserAgentError>,
        nonce: AppleSignInNonce,
        allowMigration: Bool? = nil
    ) -> SignInAction {
        SignInAction { client, _ throws(LimenError) in
            switch credential {
            case .success(let credential):
                try await client.signInWithApple(credential, nonce: nonce, allowMigration: allowMigration)
            case .failure(let error):
                throw LimenError(error)
            }
        }
    }

    /// The provider's sign-in page through the environment's web session (`AuthClient.signIn(using:options:)`).
    public static func browser(options: SignInOptions = SignInOptions()) -> SignInAction {
        SignInAction { client, environment throws(LimenError) in
            guard let userAgent = environment.userAgent else { throw .configuration(.missingKey("userAgent")) }
            try await client.signIn(using: userAgent, options: options)
        }
    }
}

/// What the place a sign-in starts from offers it: in SwiftUI, LimenUI fills it from the environment's web
/// authentication session and authorization controller.
public struct SignInEnvironment: Sendable {
    /// Shows a web page and returns the redirect (a web authentication session).
    public var userAgent: (any UserAgent)?
    /// Shows Apple's Sign in with Apple sheet.
    public var appleAuthorization: (any AppleIDAuthorizing)?

    /// An environment offering `userAgent` and `appleAuthorization` (neither by default).
    public init(userAgent: (any UserAgent)? = nil, appleAuthorization: (any AppleIDAuthorizing)? = nil) {
        (self.userAgent, self.appleAuthorization) = (userAgent, appleAuthorization)
    }
}

/// The handlers a sign-in button calls when its sign-in ends (AppleSignInKit's `onSignIn`, `onError`, `onCancel`).
///
/// ```swift
/// var handlers = SignInHandlers()
/// handlers.onSignIn = { user in print("welcome \(user.email ?? "")") }
/// handlers.deliver(.cancelled)  // calls onCancel, if set
/// ```
public struct SignInHandlers {
    /// Called with the user after a sign-in.
    public var onSignIn: (@MainActor (AuthState.User) -> Void)?
    /// Called with the error after a failed sign-in.
    public var onError: (@MainActor (LimenError) -> Void)?
    /// Called when the person closed the sheet or page.
    public var onCancel: (@MainActor () -> Void)?

    /// No handlers.
    public init() {}

    /// Calls the one handler `outcome` is for (none for ``SignInOutcome/busy``).
    @MainActor
    public func deliver(_ outcome: SignInOutcome) {
        switch outcome {
        case .signedIn(let user): onSignIn?(user)
        case .failed(let error): onError?(error)
        case .cancelled: onCancel?()
        case .busy: break
        }
    }
}
