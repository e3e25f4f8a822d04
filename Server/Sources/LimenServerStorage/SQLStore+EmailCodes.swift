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
        // Count and compare in one statement: the try is counted in the statement that reads the code it is checked
        // against, so parallel tries can never check more than `maximumAttempts` between them; a right code is used
        // up in the same statement (its expiry set to the epoch, so no later try finds it; the sweeper removes it),
        // so of two right tries at once only the first finds it.
        guard
            let counted = try await execute(
                """
                UPDATE email_codes SET attempts = attempts + 1,
                    expires_at = CASE WHEN code_hash = \(codeHash) THEN \(Self.usedCodeExpiry) ELSE expires_at END
                WHERE email = \(email) AND purpose = \(purpose) AND expires_at > \(now) AND attempts < \(maximumAttempts)
                RETURNING code_hash
                """
            ).first
        else { return false }
        // Keyed hashes: how soon the comparison stops tells nothing about the code.
        return try counted.data("code_hash") == codeHash
    }

    /// The expiry a used code is given: the epoch, before every time a try is made at.
    private static var usedCodeExpiry: Date { Date(timeIntervalSince1970: 0) }

    @discardableResult
    public func deleteExpiredEmailCodes(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM email_codes WHERE expires_at <= \(date) RETURNING 1").count
    }
}
