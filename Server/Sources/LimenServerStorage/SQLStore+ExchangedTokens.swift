import Foundation

/// Exchanged subject tokens, written once for both dialects.
extension SQLStore {
    public func recordExchangedToken(tokenHash: Data, expiresAt: Date, now: Date) async throws(StorageError) -> Bool {
        // One statement: a new row, or an expired one taken over; a live row is left alone and returns nothing.
        !(try await execute(
            """
            INSERT INTO exchanged_tokens AS t (token_hash, expires_at) VALUES (\(tokenHash), \(expiresAt))
            ON CONFLICT (token_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE t.expires_at <= \(now)
            RETURNING 1
            """
        )).isEmpty
    }

    @discardableResult
    public func deleteExpiredExchangedTokens(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM exchanged_tokens WHERE expires_at <= \(date) RETURNING 1").count
    }
}
