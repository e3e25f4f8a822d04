import Foundation
import LimenServerStorage

/// User codes entered in one browser (RFC 8628 §5.1: user codes are short, so guessing must be bounded).
///
/// Counted per browser — its CSRF secret, which every accepted `POST /device` carries — with the sign-in lockout's
/// policy (locked after 5 codes without a right one for 30 s, doubling up to 15 minutes), in the store's sign-in
/// throttle so every node sees the same count. Each code is counted before it is looked up, in the step that checks
/// the lock, so parallel guesses from one browser get no more tries. A browser that throws its cookie away starts a
/// new count, so this only stops careless guessing; what bounds a determined guesser is the per-address POST rate limit
/// together with the codes' 10-minute life and 20⁸ values.
package struct DeviceCodeAttempts: Sendable {
    /// Where attempts are counted.
    package let store: any SignInThrottleStore
    /// Names the counters (an HMAC of the browser secret, never the secret).
    package let keys: DerivedKeys
    /// When to lock.
    package let policy: SignInLockout
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any SignInThrottleStore, keys: DerivedKeys, policy: SignInLockout, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.keys = keys
        self.policy = policy
        self.now = now
    }

    /// Counts a code entered in the browser: `nil` when it may be checked, else the seconds until the browser may try
    /// again (the code not counted).
    package func begin(browserSecret: String) async throws(StorageError) -> Int? {
        let now = now()
        guard
            case .locked(let until) = try await store.countSignInAttempt(
                key: key(browserSecret), now: now, lockout: policy)
        else { return nil }
        return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    /// Forgets the browser's codes (a right one was entered).
    package func clear(browserSecret: String) async throws(StorageError) {
        try await store.clearSignInFailures(key: key(browserSecret))
    }

    /// The throttle key: never the secret itself, and distinct from the sign-in keys.
    private func key(_ browserSecret: String) -> String {
        keys.hmacHex("device-code\n\(browserSecret)", for: .signInThrottle)
    }
}
