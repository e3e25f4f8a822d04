import Crypto
import Foundation

/// Progressive lockout after repeated failed sign-ins to one account name (OWASP Authentication Cheat Sheet):
/// from the ``threshold``-th consecutive failure on, the name is locked for ``baseDuration``, doubling with each further
/// failure up to ``maximumDuration``. A success clears the count. Counted per name whether or not an account exists,
/// so a lock tells nothing about which addresses have accounts.
public struct SignInLockout: Sendable, Equatable {
    /// Consecutive failures before the first lock.
    public var threshold: Int
    /// The first lock's length.
    public var baseDuration: TimeInterval
    /// The longest lock.
    public var maximumDuration: TimeInterval
    /// Failures older than this are forgotten by the expiry sweep.
    public var memory: TimeInterval

    /// Creates a policy; the defaults lock after 5 failures for 30 s, doubling up to 15 minutes.
    public init(
        threshold: Int = 5,
        baseDuration: TimeInterval = 30,
        maximumDuration: TimeInterval = 900,
        memory: TimeInterval = 86_400
    ) {
        self.threshold = threshold
        self.baseDuration = baseDuration
        self.maximumDuration = maximumDuration
        self.memory = memory
    }

    /// How long to lock after `failures` consecutive failures, or `nil` below the threshold.
    public func lockDuration(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= threshold else { return nil }
        let doublings = min(failures - threshold, 30)
        return min(baseDuration * Double(1 << doublings), maximumDuration)
    }

    /// The key failures are counted under: the SHA-256 of the normalised email, so tried addresses are not stored.
    static func key(forEmail email: String) -> String {
        SHA256.hash(data: Data(email.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
