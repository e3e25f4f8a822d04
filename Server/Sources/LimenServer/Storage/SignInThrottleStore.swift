import Foundation

/// Consecutive failed sign-ins per account name, kept in the ``Store`` so every node sees the same count.
public protocol SignInThrottleStore: Sendable {
    /// Adds one failure for `key` at `now` and returns the consecutive failures so far, this one included.
    func recordSignInFailure(key: String, now: Date) async throws(StorageError) -> Int
    /// Locks `key` until `date`.
    func lockSignIn(key: String, until date: Date) async throws(StorageError)
    /// When `key` stops being locked, if it is locked at all.
    func signInLockedUntil(key: String) async throws(StorageError) -> Date?
    /// Forgets the failures of `key` (after a successful sign-in).
    func clearSignInFailures(key: String) async throws(StorageError)
    /// Forgets keys whose last failure was before `date`; returns how many.
    @discardableResult
    func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int
}
