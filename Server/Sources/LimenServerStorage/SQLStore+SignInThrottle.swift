import Foundation

/// Sign-in attempt counting, written once for both dialects.
extension SQLStore {
    public func countSignInAttempt(key: String, now: Date, lockout: SignInLockout?) async throws(StorageError)
        -> SignInAttempt
    {
        let terms = lockout?.storedTerms
        let (threshold, base, maximum) = (terms?.threshold, terms?.base, terms?.maximum)
        // One statement: the lock check, the count and the new lock (ON CONFLICT … WHERE skips a locked row). The casts
        // give PostgreSQL the type of a parameter that may be NULL.
        let counted = try await execute(
            """
            INSERT INTO sign_in_failures AS f (key, failures, last_failure_at, locked_until)
            VALUES (\(key), 1, \(now),
                CASE WHEN CAST(\(threshold) AS BIGINT) <= 1
                    THEN \(now) + \(.least)(CAST(\(base) AS BIGINT), CAST(\(maximum) AS BIGINT)) END)
            ON CONFLICT (key) DO UPDATE SET
                failures = f.failures + 1,
                last_failure_at = excluded.last_failure_at,
                locked_until = CASE WHEN f.failures + 1 >= CAST(\(threshold) AS BIGINT)
                    THEN excluded.last_failure_at
                        + \(.least)(
                            CAST(\(base) AS BIGINT)
                                << CAST(\(.least)(f.failures + 1 - CAST(\(threshold) AS BIGINT), 30) AS INTEGER),
                            CAST(\(maximum) AS BIGINT))
                    ELSE f.locked_until END
            WHERE COALESCE(f.locked_until, 0) <= excluded.last_failure_at
            RETURNING failures
            """
        )
        if let row = counted.first { return .admitted(attempts: try row.integer("failures")) }
        let lock = try await execute("SELECT locked_until FROM sign_in_failures WHERE key = \(key)").first.flatMap {
            row throws(StorageError) in try row.optionalDate("locked_until")
        }
        return .locked(until: lock ?? now)
    }

    public func clearSignInFailures(key: String) async throws(StorageError) {
        try await execute("DELETE FROM sign_in_failures WHERE key = \(key)")
    }

    @discardableResult
    public func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int {
        try await execute(
            """
            DELETE FROM sign_in_failures WHERE last_failure_at < \(date) AND COALESCE(locked_until, 0) < \(date)
            RETURNING 1
            """
        ).count
    }
}
