import Foundation
import PostgresNIO

extension PostgresStore {
    public func countSignInAttempt(key: String, now: Date, lockout: SignInLockout?) async throws(StorageError)
        -> SignInAttempt
    {
        let terms = lockout?.storedTerms
        let (threshold, base, maximum) = (terms.map { Int64($0.threshold) }, terms?.base, terms?.maximum)
        let at = Self.seconds(now)
        // One statement: the lock check, the count and the new lock (ON CONFLICT … WHERE skips a locked row).
        let counted = try await rows(
            """
            INSERT INTO sign_in_failures AS f (key, failures, last_failure_at, locked_until)
            VALUES (\(key), 1, \(at),
                CASE WHEN \(threshold)::BIGINT <= 1 THEN \(at) + LEAST(\(base)::BIGINT, \(maximum)::BIGINT) END)
            ON CONFLICT (key) DO UPDATE SET
                failures = f.failures + 1,
                last_failure_at = excluded.last_failure_at,
                locked_until = CASE WHEN f.failures + 1 >= \(threshold)::BIGINT
                    THEN excluded.last_failure_at
                        + LEAST(\(base)::BIGINT << LEAST(f.failures + 1 - \(threshold)::BIGINT, 30)::INTEGER,
                            \(maximum)::BIGINT)
                    ELSE f.locked_until END
            WHERE COALESCE(f.locked_until, 0) <= excluded.last_failure_at
            RETURNING failures
            """
        )
        if let row = counted.first { return .admitted(attempts: try Self.value(row, "failures", as: Int.self)) }
        let lock = try await rows("SELECT locked_until FROM sign_in_failures WHERE key = \(key)").first.flatMap {
            row throws(StorageError) in try Self.optionalDate(row, "locked_until")
        }
        return .locked(until: lock ?? now)
    }

    public func clearSignInFailures(key: String) async throws(StorageError) {
        try await rows("DELETE FROM sign_in_failures WHERE key = \(key)")
    }

    @discardableResult
    public func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int {
        let cutoff = Self.seconds(date)
        return try await rows(
            """
            DELETE FROM sign_in_failures WHERE last_failure_at < \(cutoff) AND COALESCE(locked_until, 0) < \(cutoff)
            RETURNING 1
            """
        ).count
    }
}
