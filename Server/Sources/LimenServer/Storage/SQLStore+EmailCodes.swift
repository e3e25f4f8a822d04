import Foundation

/// One-time email codes, written once for both dialects.
extension SQLStore {
    public func replaceEmailCode(_ code: EmailCodeRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO email_codes (email, purpose, code_hash, attempts, created_at, expires_at)
            VALUES (\(code.email), \(code.purpose), \(code.codeHash), \(code.attempts), \(code.createdAt),
                \(code.expiresAt))
            ON CONFLICT (email, purpose) DO UPDATE SET code_hash = excluded.code_hash, attempts = excluded.attempts,
                created_at = excluded.created_at, expires_at = excluded.expires_at
            """
        )
    }

    public func consumeEmailCode(
        email: String,
        purpose: String,
        codeHash: Data,
        now: Date,
        maximumAttempts: Int
    ) async throws(StorageError) -> Bool {
        let used = try await execute(
            """
            DELETE FROM email_codes
            WHERE email = \(email) AND purpose = \(purpose) AND code_hash = \(codeHash) AND expires_at > \(now)
                AND attempts < \(maximumAttempts)
            RETURNING 1
            """
        )
        guard used.isEmpty else { return true }
        try await execute(
            "UPDATE email_codes SET attempts = attempts + 1 WHERE email = \(email) AND purpose = \(purpose)")
        return false
    }

    @discardableResult
    public func deleteExpiredEmailCodes(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM email_codes WHERE expires_at <= \(date) RETURNING 1").count
    }
}
