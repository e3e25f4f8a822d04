import Crypto
import Foundation

/// Wrong user codes entered in one browser (RFC 8628 §5.1: user codes are short, so guessing must be bounded).
///
/// Counted per browser — its CSRF secret, which every accepted `POST /device` carries — with the sign-in lockout's
/// policy (locked after 5 wrong codes for 30 s, doubling up to 15 minutes), in the store's sign-in throttle so every
/// node sees the same count. A browser that throws its cookie away starts a new count, so this only stops careless
/// guessing; what bounds a determined guesser is the per-address POST rate limit together with the codes' 10-minute
/// life and 20⁸ values.
struct DeviceCodeAttempts: Sendable {
    /// Where failures are counted.
    let store: any Store
    /// When to lock.
    let policy: SignInLockout
    /// The provider's clock.
    let now: @Sendable () -> Date

    /// Seconds until the browser may try again, or `nil` when it may now.
    func lockedFor(browserSecret: String) async throws(StorageError) -> Int? {
        guard let until = try await store.signInLockedUntil(key: Self.key(browserSecret)) else { return nil }
        let remaining = until.timeIntervalSince(now())
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    /// Counts a wrong code, locking the browser once the policy says so.
    func recordFailure(browserSecret: String) async throws(StorageError) {
        let key = Self.key(browserSecret)
        let failures = try await store.recordSignInFailure(key: key, now: now())
        if let duration = policy.lockDuration(afterFailures: failures) {
            try await store.lockSignIn(key: key, until: now().addingTimeInterval(duration))
        }
    }

    /// Forgets the browser's wrong codes (a right one was entered).
    func clear(browserSecret: String) async throws(StorageError) {
        try await store.clearSignInFailures(key: Self.key(browserSecret))
    }

    /// The throttle key: never the secret itself, and distinct from the email keys (bare hex).
    private static func key(_ browserSecret: String) -> String {
        "device-code:" + SHA256.hash(data: Data(browserSecret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
