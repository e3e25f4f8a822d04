import Foundation

/// Used challenges, written once for both dialects.
extension SQLStore {
    public func recordUsedChallenge(challengeHash: Data, expiresAt: Date, now: Date) async throws(StorageError) -> Bool
    {
        // One statement, so two nodes recording one challenge at once cannot both see it new: a new row, or an expired
        // one taken over; a live row is left alone and returns nothing.
        let recorded = try await execute(
            """
            INSERT INTO used_challenges AS u (challenge_hash, expires_at) VALUES (\(challengeHash), \(expiresAt))
            ON CONFLICT (challenge_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE u.expires_at <= \(now)
            RETURNING 1
            """)
        return !recorded.isEmpty
    }

    @discardableResult
    public func deleteExpiredUsedChallenges(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM used_challenges WHERE expires_at <= \(date) RETURNING 1").count
    }
}
