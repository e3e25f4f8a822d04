import Foundation

/// Something that happened to the session, delivered in order to event handlers and streams.
public enum AuthEvent: Sendable, Equatable {
    /// A sign-in began.
    case signInStarted(method: SignInMethod)
    /// A sign-in finished with a signed-in user; `userType` says whether the sign-in created the account (Rownd's
    /// `userType`), as far as the provider said (a native flow's success node says; a browser sign-in does not).
    case signInCompleted(method: SignInMethod, userType: UserType)
    /// A sign-in failed.
    case signInFailed(reason: LimenError)
    /// The access token was refreshed.
    case tokenRefreshed
    /// The provider ended the session (refresh refused); the user must sign in again.
    case sessionExpired
    /// The user signed out.
    case signedOut
    /// The signed-in user's profile in the state (``AuthState/User/data``) changed: a ``CurrentUser/set(data:)`` or
    /// ``CurrentUser/set(field:value:)`` was written, or a ``CurrentUser/get()`` brought other data (Rownd's
    /// `userDataUpdated`).
    case userDataUpdated
    /// A pinned host presented a certificate chain matching none of its pins (``Configuration/pinning``): the request
    /// failed with ``LimenError/pinningFailed(host:)`` when the pins are enforced, and went on when they are
    /// ``PinningMode/reportOnly``.
    case pinningFailed(PinningFailure)
}

/// Whether a sign-in created the account.
public enum UserType: String, Sendable, Equatable {
    /// The account was created by this sign-in (sign-up, or a first sign-in that made it).
    case new
    /// The account existed before.
    case existing
    /// The provider did not say (a browser sign-in, the device grant, token exchange).
    case unknown
}

/// How a user signed in.
public enum SignInMethod: String, Sendable, Equatable {
    /// Authorization code with PKCE through a browser or web authentication session.
    case authorizationCode = "authorization_code"
    /// The device authorization grant (RFC 8628).
    case deviceCode = "device_code"
    /// A token exchanged for a session (RFC 8693).
    case tokenExchange = "token_exchange"
    /// A server-driven flow (`startFlow`, `signIn(email:password:)`, `register(email:code:password:name:)`) whose code
    /// was redeemed with PKCE.
    case flow
    /// A code sent by SMS to a phone number (the `phone-code` flow: ``AuthClient/signIn(phone:code:)``, or the flow
    /// started by name); Rownd's `method: "phone"`.
    case phone

    /// The method of a sign-in through flow `name`: ``phone`` for `phone-code`, ``flow`` for the others.
    init(flow name: String) {
        self = name == "phone-code" ? .phone : .flow
    }
}
