import Foundation

/// Sign-in attempts per throttle key (an account name from one client address, an account name from anywhere, a
/// browser entering device codes), kept in the ``Store`` so every node sees the same count.
///
/// An attempt is counted before its password is checked, in the same step that checks the lock: of many parallel
/// attempts each sees the ones before it, so no more of them get a guess than the policy allows.
public protocol SignInThrottleStore: Sendable {
    /// In one atomic step: refuses the attempt when `key` is locked at `now`; otherwise counts it (the attempts since
    /// the last ``clearSignInFailures(key:)``, this one included) and, when `lockout` is given and the count reaches
    /// its threshold, locks `key` from `now` for ``SignInLockout/lockDuration(afterFailures:)`` of that count.
    func countSignInAttempt(key: String, now: Date, lockout: SignInLockout?) async throws(StorageError)
        -> SignInAttempt
    /// Forgets the attempts of `key` and its lock (after a successful sign-in).
    func clearSignInFailures(key: String) async throws(StorageError)
    /// Forgets keys whose last attempt was before `date` and whose lock has ended; returns how many.
    @discardableResult
    func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int
}

/// What ``SignInThrottleStore/countSignInAttempt(key:now:lockout:)`` answers.
public enum SignInAttempt: Sendable, Equatable {
    /// The attempt was counted and may go on: the attempts since the last success, this one included.
    case admitted(attempts: Int)
    /// The key is locked until then; the attempt was not counted and must not go on.
    case locked(until: Date)
}

extension SignInLockout {
    /// The policy as whole seconds, for the stores' single-statement lock: the threshold, the first lock and the
    /// longest lock (the stores double the first lock per attempt past the threshold, as ``lockDuration(afterFailures:)``
    /// does).
    var storedTerms: (threshold: Int, base: Int64, maximum: Int64) {
        (max(1, threshold), Int64(baseDuration.rounded(.up)), Int64(maximumDuration.rounded(.up)))
    }
}
