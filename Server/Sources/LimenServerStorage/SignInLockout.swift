import Foundation

/// Progressive lockout after repeated failed sign-ins to one account name from one client address (OWASP
/// Authentication Cheat Sheet): from the ``threshold``-th attempt without a success on, the name is locked for that
/// address for ``baseDuration``, doubling with each further attempt up to ``maximumDuration``. A success clears the
/// count. Counted per name whether or not an account exists, so a lock tells nothing about which emails have accounts;
/// counted per address, so nobody can lock the owner out from elsewhere (across addresses, ``SignInSlowdown``).
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

}
