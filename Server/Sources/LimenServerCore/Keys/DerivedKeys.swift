import Crypto
import Foundation
import LimenServerStorage
import LimenWire

/// What a key derived from the master key is for; each purpose gets its own key, so one never stands in for another.
package enum DerivedKeyPurpose: String, Sendable, CaseIterable {
    /// Names the sign-in failure counters (an HMAC of the email and client address, never the address itself).
    case signInThrottle = "limen/sign-in-throttle/v1"
    /// Hashes the short user codes of the device grant (RFC 8628), which are too small to store as a plain SHA-256.
    case deviceUserCode = "limen/device-user-code/v1"
    /// Binds CSRF tokens to the server as well as to the browser.
    case csrf = "limen/csrf/v1"
    /// Binds a pending sign-in request to the browser that started it.
    case pendingRequestBinding = "limen/pending-request-binding/v1"
    /// Hashes the one-time codes sent by email, which are too short to store as a plain SHA-256.
    case emailCode = "limen/email-code/v1"
    /// Encrypts the refresh tokens Apple gives for its users (``AppleRefreshTokenSeal``).
    case appleRefreshToken = "limen/apple-refresh-token/v1"
    /// Names the budgets of email codes per address and purpose (an HMAC, never the address itself).
    case emailCodeBudget = "limen/email-code-budget/v1"
    /// Encrypts the messages waiting in the mail outbox, which hold one-time codes and links (``MailOutbox``).
    case mailOutbox = "limen/mail-outbox/v1"
    /// Encrypts the TOTP secrets of two-step sign-in (``SecondFactors``), which must be read back to check a code.
    case totpSecret = "limen/totp-secret/v1"
    /// Makes the nonces DPoP proofs must carry when the server asks for them (``DPoPNonces``).
    case dpopNonce = "limen/dpop-nonce/v1"
    /// Seals the passkey registration challenge the account page carries, bound to its browser session.
    case accountPasskeyChallenge = "limen/account-passkey-challenge/v1"
    /// Encrypts the signing secrets of event webhooks (``Webhooks``), which must be read back to sign.
    case webhookSecret = "limen/webhook-secret/v1"
}

/// Keys derived from the master key (HKDF-SHA256, RFC 5869) for keyed hashes of low-entropy values.
///
/// Every node sharing the master key derives the same keys, so a value hashed on one node is found on another.
///
/// ```swift
/// let keys = DerivedKeys(masterKey: masterKey)
/// let name = keys.hmacHex("ada@example.com|203.0.113.7", for: .signInThrottle)
/// ```
package struct DerivedKeys: Sendable {
    private let masterKey: SymmetricKey
    /// Every purpose's key, derived once: a keyed hash is on the hot path of every code, budget and throttle.
    private let derived: [DerivedKeyPurpose: SymmetricKey]

    /// Keys derived from `masterKey`.
    package init(masterKey: MasterKey) {
        self.masterKey = masterKey.key
        derived = Dictionary(
            uniqueKeysWithValues: DerivedKeyPurpose.allCases.map { ($0, Self.derive($0, from: masterKey.key)) })
    }

    /// The key for `purpose`.
    package func key(for purpose: DerivedKeyPurpose) -> SymmetricKey {
        derived[purpose] ?? Self.derive(purpose, from: masterKey)
    }

    private static func derive(_ purpose: DerivedKeyPurpose, from masterKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey, info: Data(purpose.rawValue.utf8), outputByteCount: 32)
    }

    /// HMAC-SHA256 of `value` under the key for `purpose`, as lower-case hex.
    func hmacHex(_ value: String, for purpose: DerivedKeyPurpose) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: key(for: purpose)).lowercaseHex
    }
}
