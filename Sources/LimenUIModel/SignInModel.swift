import Limen
import Observation

/// The sign-in state an app's views bind to: whether a sign-in runs, the last error, and the signed-in user, kept
/// current from the client's state. LimenUI's `SignInButton` runs its sign-in through one; share one between buttons
/// so that a second press anywhere waits for the first.
///
/// ```swift
/// @State var signIn = SignInModel(client: client)
/// // …
/// let outcome = await signIn.signIn(.apple())
/// if case .failed(let error) = outcome { print(error.code) }
/// ```
@MainActor
@Observable
public final class SignInModel {
    /// The client that signs in.
    public let client: AuthClient
    /// Whether a sign-in is running (show a loading state; another press does nothing meanwhile).
    public private(set) var isSigningIn = false
    /// The error of the last sign-in that failed; cleared when the next one starts. A cancelled sign-in is no error.
    public private(set) var lastError: LimenError?
    /// The signed-in user, or `nil` when nobody is signed in.
    public private(set) var user: AuthState.User?
    @ObservationIgnored private var feed: Task<Void, Never>?

    /// Starts following `client`'s state.
    public init(client: AuthClient) {
        self.client = client
        user = Self.user(of: client.state)
        let updates = client.stateUpdates()
        feed = Task { [weak self] in
            for await state in updates {
                guard let self else { return }
                let user = Self.user(of: state)
                if self.user != user { self.user = user }
            }
        }
    }

    deinit {
        feed?.cancel()
    }

    /// What VoiceOver reads as a sign-in button's value: that a sign-in runs, or nothing.
    public var accessibilityValue: String? { isSigningIn ? "Signing in, please wait" : nil }

    /// Runs `action` unless a sign-in is already running (then ``SignInOutcome/busy``), with ``isSigningIn`` set
    /// meanwhile and ``lastError`` set after a failure.
    @discardableResult
    public func signIn(_ action: SignInAction, in environment: SignInEnvironment = SignInEnvironment()) async
        -> SignInOutcome
    {
        guard !isSigningIn else { return .busy }
        (isSigningIn, lastError) = (true, nil)
        defer { isSigningIn = false }
        let outcome: SignInOutcome
        do throws(LimenError) {
            try await action.perform(client, environment)
            outcome = .signedIn(client.state.user)
        } catch {
            outcome = SignInOutcome(error)
        }
        if case .failed(let error) = outcome { lastError = error }
        return outcome
    }

    /// The user `state` shows signed in, if any.
    private static func user(of state: AuthState) -> AuthState.User? {
        state.auth.isAuthenticated ? state.user : nil
    }
}

/// How a sign-in ended.
public enum SignInOutcome: Sendable, Equatable {
    /// Signed in as this user.
    case signedIn(AuthState.User)
    /// The person closed the sign-in page or sheet: nothing changed and nothing is wrong.
    case cancelled
    /// The sign-in failed (``SignInModel/lastError`` holds the same error).
    case failed(LimenError)
    /// Another sign-in of the same model was running; this press did nothing.
    case busy

    /// The outcome of a sign-in that threw `error`: a closed page or sheet is ``cancelled``.
    init(_ error: LimenError) {
        switch error {
        case .userCancelled, .userAgent(.cancelled): self = .cancelled
        default: self = .failed(error)
        }
    }
}
