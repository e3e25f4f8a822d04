import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func recordSignInFailure(key: String, now: Date) async throws(StorageError) -> Int {
        let rows = try await query(
            """
            INSERT INTO sign_in_failures (key, failures, last_failure_at) VALUES (?, 1, ?)
            ON CONFLICT (key) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at
            RETURNING failures
            """,
            [.text(key), Self.time(now)]
        )
        return rows.first?.column("failures")?.integer ?? 1
    }

    public func lockSignIn(key: String, until date: Date) async throws(StorageError) {
        try await query("UPDATE sign_in_failures SET locked_until = ? WHERE key = ?", [Self.time(date), .text(key)])
    }

    public func signInLockedUntil(key: String) async throws(StorageError) -> Date? {
        let rows = try await query("SELECT locked_until FROM sign_in_failures WHERE key = ?", [.text(key)])
        return rows.first?.column("locked_until")?.integer.map { Date(timeIntervalSince1970: Double($0)) }
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
