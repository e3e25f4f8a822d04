import Foundation
import LimenOIDC

/// One snapshot of everything an app shows about authentication (Rownd's `state`), as a `Sendable` value.
///
/// ```swift
/// for await auth in client.subscribe({ $0.auth }) {
///     signInButton.isHidden = auth.isAuthenticated
/// }
/// ```
public struct AuthState: Sendable, Equatable {
    /// Where the session is in its life.
    public enum Phase: String, Sendable, Equatable {
        /// Stored credentials are being read; the app should show neither signed-in nor signed-out UI yet.
        case restoring
        /// Nobody is signed in.
        case signedOut
        /// A sign-in is under way.
        case signingIn
        /// A user is signed in.
        case signedIn
        /// The session ended on the provider's side; the user must sign in again.
        case expired
    }

    /// The authentication part of the state.
    public struct Auth: Sendable, Equatable {
        /// Whether a user is signed in.
        public var isAuthenticated: Bool
        /// The current access token, if signed in. Prefer ``AuthClient/validAccessToken(minimumTimeToLive:)``, which refreshes.
        public var accessToken: String?
        /// Whether the user's email (or other identifier) is verified (`email_verified`).
        public var isVerifiedUser: Bool
        /// How much the provider knows about the user (Limen Server's `auth_level` claim): `AuthLevel.guest` after
        /// ``AuthClient/signInAnonymously()``, rising to `AuthLevel.unverified` or `AuthLevel.verified` once an
        /// identity is linked (here at once, on other devices at their next refresh). `nil` when signed out or when
        /// the provider does not send the claim.
        public var level: AuthLevel?
        /// Whether anyone has signed in with this client before (survives sign-out).
        public var hasPreviouslySignedIn: Bool

        /// Creates an auth part.
        public init(
            isAuthenticated: Bool = false,
            accessToken: String? = nil,
            isVerifiedUser: Bool = false,
            level: AuthLevel? = nil,
            hasPreviouslySignedIn: Bool = false
        ) {
            self.isAuthenticated = isAuthenticated
            self.accessToken = accessToken
            self.isVerifiedUser = isVerifiedUser
            self.level = level
            self.hasPreviouslySignedIn = hasPreviouslySignedIn
        }

        /// Whether the signed-in user is a guest (``level`` is `AuthLevel.guest`): signed in anonymously, with no
        /// identity linked yet (RxFireAuth's `isAnonymous`).
        ///
        /// ```swift
        /// saveProgressBanner.isHidden = !client.state.auth.isAnonymous
        /// ```
        public var isAnonymous: Bool { level == .guest }
    }

    /// The user part of the state.
    public struct User: Sendable, Equatable {
        /// The subject identifier (`sub`), if signed in.
        public var id: String?
        /// The user's claims (ID token, then UserInfo).
        public var claims: [String: JSONValue]
        /// The user's profile as the last ``CurrentUser/get()`` or ``CurrentUser/set(data:)`` left it, encrypted
        /// fields decrypted (Rownd's `state.user.data`); empty until the first. Kept while the session refreshes,
        /// emptied at sign-out.
        ///
        /// ```swift
        /// for await data in client.subscribe({ $0.user.data }) { nicknameLabel.text = data["nickname"]?.stringValue }
        /// ```
        public var data: [String: JSONValue]

        /// Creates a user part.
        public init(id: String? = nil, claims: [String: JSONValue] = [:], data: [String: JSONValue] = [:]) {
            self.id = id
            self.claims = claims
            self.data = data
        }

        /// The `email` claim.
        public var email: String? { claims["email"]?.stringValue }
        /// The `name` claim.
        public var name: String? { claims["name"]?.stringValue }
        /// The `phone_number` claim (E.164, with the `phone` scope): the number the user signs in with by SMS code.
        public var phoneNumber: String? { claims["phone_number"]?.stringValue }
    }

    /// The session phase.
    public var phase: Phase
    /// Authentication facts.
    public var auth: Auth
    /// The signed-in user.
    public var user: User

    /// Creates a state.
    public init(phase: Phase = .restoring, auth: Auth = Auth(), user: User = User()) {
        self.phase = phase
        self.auth = auth
        self.user = user
    }

    /// The state for a signed-in session, keeping the profile data of `previous` when it is the same user's.
    static func signedIn(_ tokens: TokenSet, after previous: AuthState) -> AuthState {
        var state = signedIn(tokens)
        if previous.user.id == tokens.subject { state.user.data = previous.user.data }
        return state
    }

    /// The state for a signed-in session, without profile data.
    static func signedIn(_ tokens: TokenSet) -> AuthState {
        AuthState(
            phase: .signedIn,
            auth: Auth(
                isAuthenticated: true,
                accessToken: tokens.accessToken,
                isVerifiedUser: tokens.claims["email_verified"]?.boolValue ?? false,
                level: tokens.claims[AuthLevel.claimName]?.stringValue.flatMap(AuthLevel.init(rawValue:)),
                hasPreviouslySignedIn: true
            ),
            user: User(id: tokens.subject, claims: tokens.claims)
        )
    }

    /// The state after the session ended, remembering that someone had signed in.
    static func ended(_ phase: Phase, hadSignedIn: Bool) -> AuthState {
        AuthState(phase: phase, auth: Auth(hasPreviouslySignedIn: hadSignedIn))
    }
}

extension AuthState.Auth: CustomStringConvertible {
    /// A description that never contains the token.
    public var description: String {
        "Auth(isAuthenticated: \(isAuthenticated), accessToken: \(accessToken == nil ? "nil" : "<redacted>"), "
            + "isVerifiedUser: \(isVerifiedUser), level: \(level?.rawValue ?? "nil"), "
            + "hasPreviouslySignedIn: \(hasPreviouslySignedIn))"
    }
}
