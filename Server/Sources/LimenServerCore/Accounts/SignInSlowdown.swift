import Foundation
import LimenServerStorage

/// The slow-down of sign-ins to one account name from anywhere (OWASP Authentication Cheat Sheet): once more than
/// ``threshold`` attempts since the last success have come in, from whatever addresses, each further attempt waits
/// ``baseDelay``, doubling up to ``maximumDelay``, before its password is checked. It never refuses: the owner of an
/// attacked account still signs in, a little later, while the hard lock (``SignInLockout``) stops each guessing address.
public struct SignInSlowdown: Sendable, Equatable {
    /// Attempts (from every address) without a success before attempts are delayed.
    public var threshold: Int
    /// The first delay.
    public var baseDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration

    /// Creates a policy; the defaults delay from the eleventh attempt on by 1 s, doubling up to 8 s.
    public init(threshold: Int = 10, baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(8)) {
        self.threshold = threshold
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// How long the attempt numbered `attempts` (since the last success, itself included) waits; `nil` for none.
    public func delay(afterAttempts attempts: Int) -> Duration? {
        guard attempts > threshold else { return nil }
        let doublings = min(attempts - threshold - 1, 30)
        return min(baseDelay * (1 << doublings), maximumDelay)
    }
}
