/// A way to answer the second step of a two-step sign-in, as the `mfa` node offers it.
package enum SecondFactorMethod: String, Sendable, Codable, CaseIterable {
    /// A code from the authenticator app (`totp`).
    case totp
    /// One of the user's passkeys (`passkey`).
    case passkey
    /// One of the single-use recovery codes (`recovery_code`).
    case recoveryCode = "recovery_code"
}

/// Why a second-factor code was refused.
package enum SecondFactorRefusal: Error, Sendable, Equatable {
    /// The code is wrong, used already, or not a code at all.
    case invalidCode
    /// Too many wrong codes: the account is locked for this address for `retryAfter` seconds.
    case locked(retryAfter: Int)
    /// Two-step sign-in is on already (turn it off first) or, for a check, off.
    case wrongState

    /// What a person is told: a check in the wrong state reads as a wrong code, so it tells nothing of the account.
    package var message: String {
        switch self {
        case .invalidCode, .wrongState: "The code is not correct, or was used already."
        case .locked: "Too many wrong codes: try again later."
        }
    }
}
