import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func countSignInAttempt(key: String, now: Date, lockout: SignInLockout?) async throws(StorageError)
        -> SignInAttempt
    {
        let terms = lockout?.storedTerms
        // One statement: the lock check, the count and the new lock (ON CONFLICT … WHERE skips a locked row).
        let rows = try await query(
            """
            INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until)
            VALUES (?1, 1, ?2, CASE WHEN ?3 <= 1 THEN ?2 + MIN(?4, ?5) END)
            ON CONFLICT (key) DO UPDATE SET
                failures = failures + 1,
                last_failure_at = excluded.last_failure_at,
                locked_until = CASE WHEN failures + 1 >= ?3
                    THEN excluded.last_failure_at + MIN(?4 << MIN(failures + 1 - ?3, 30), ?5)
                    ELSE locked_until END
            WHERE COALESCE(locked_until, 0) <= excluded.last_failure_at
            RETURNING failures
            """,
            [
                .text(key), Self.time(now), terms.map { .integer($0.threshold) } ?? .null,
                terms.map { .integer(Int($0.base)) } ?? .null, terms.map { .integer(Int($0.maximum)) } ?? .null,
            ]
        )
        if let attempts = rows.first?.column("failures")?.integer { return .admitted(attempts: attempts) }
        let lock = try await query("SELECT locked_until FROM sign_in_failures WHERE key = ?", [.text(key)])
        return .locked(
            until: lock.first?.column("locked_until")?.integer.map { Date(timeIntervalSince1970: Double($0)) } ?? now)
    }

    public func clearSignInFailures(key: String) async throws(StorageError) {
        try await query("DELETE FROM sign_in_failures WHERE key = ?", [.text(key)])
    }

    @discardableResult
    public func deleteSignInFailures(before date: Date) async throws(StorageError) -> Int {
        try await query(
            "DELETE FROM sign_in_failures WHERE last_failure_at < ? AND COALESCE(locked_until, 0) < ? RETURNING 1",
            [Self.time(date), Self.time(date)]
        ).count
    }
}
