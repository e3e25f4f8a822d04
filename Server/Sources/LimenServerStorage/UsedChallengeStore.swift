import Foundation

/// The challenges a page carried sealed (so the server kept nothing when it showed them) and that were used, each
/// remembered until it expires, so that one challenge is used once (WebAuthn Level 3 §13.4.3): a second registration
/// with the account page's passkey challenge is refused on any node, and of two at once exactly one goes through.
/// Kept in table `used_challenges` (schema version 28), swept once expired.
public protocol UsedChallengeStore: Sendable {
    /// In one atomic step: records the challenge named by `challengeHash` (a SHA-256) as used until `expiresAt` and
    /// returns `true`, unless it is recorded already and its record has not expired at `now` (then `false`, a second
    /// use, and nothing changes).
    func recordUsedChallenge(challengeHash: Data, expiresAt: Date, now: Date) async throws(StorageError) -> Bool
    /// Forgets the challenges that expired before `date`; returns how many.
    @discardableResult
    func deleteExpiredUsedChallenges(before date: Date) async throws(StorageError) -> Int
}
