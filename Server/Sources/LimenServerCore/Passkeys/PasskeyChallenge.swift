import Foundation

/// A passkey ceremony an interaction started when it showed a `PASSKEY` collector: its one-use challenge, when the
/// challenge expires, and the options the collector carries (kept with the interaction, so the node shows the same
/// options until it is answered).
package struct PasskeyChallenge: Sendable, Equatable, Codable {
    /// The collector that shows it.
    package var collector: String
    /// The challenge, base64url (32 random bytes).
    package var challenge: String
    /// When it stops being accepted (``PasskeyCeremonies/challengeLifetime`` after it was made).
    package var expiresAt: Date
    /// The options' JSON text (`PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`).
    package var options: String
    /// Whether the assertion or attestation must carry the UV flag.
    package var requiresUserVerification: Bool
    /// A registration's WebAuthn user handle, made when its options were shown; `nil` for a sign-in, and in a
    /// context stored before it was kept here (the registration then reads it from the store again).
    package var userHandle: Data? = nil
}

/// Why a passkey response was refused, as a flow's error detail names it (`{key, code}`).
package enum PasskeyRefusal: String, Error, Sendable, Equatable {
    /// Not a credential the ceremony accepts: malformed, a wrong origin, RP or signature, flags missing, replayed.
    case invalidCredential = "invalid_credential"
    /// No user has this credential (or not the user it must be).
    case unknownCredential = "unknown_credential"
    /// The challenge was used, expired, or never issued to this interaction.
    case challengeExpired = "challenge_expired"
    /// The signature counter went back: the authenticator may have been cloned.
    case credentialCloned = "credential_cloned"

    /// What the person reads.
    package var message: String {
        switch self {
        case .invalidCredential: "This passkey could not be checked. Try again."
        case .unknownCredential: "This passkey is not registered here."
        case .challengeExpired: "This passkey request has expired. Try again."
        case .credentialCloned: "This passkey may have been copied: it can no longer sign in. Use another way in."
        }
    }
}
