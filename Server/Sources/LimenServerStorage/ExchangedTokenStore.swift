import Foundation

/// The subject tokens token exchange has accepted (RFC 8693), each remembered until it expires, so that one token is
/// exchanged once: a copy of it (in a log, a proxy, another app) signs nobody in again.
public protocol ExchangedTokenStore: Sendable {
    /// In one atomic step: records the subject token named by `tokenHash` (a SHA-256) as exchanged until `expiresAt`
    /// and returns `true`, unless it is recorded already and its record has not expired at `now` (then `false`, a
    /// replay, and nothing changes).
    func recordExchangedToken(tokenHash: Data, expiresAt: Date, now: Date) async throws(StorageError) -> Bool
    /// Forgets the tokens that expired before `date`; returns how many.
    @discardableResult
    func deleteExpiredExchangedTokens(before date: Date) async throws(StorageError) -> Int
}

/// Version 21: the subject tokens token exchange accepted, until they expire (``ExchangedTokenStore``).
enum ExchangedTokenMigration {
    /// The migration.
    static let migration = SchemaMigration.singleUse(
        version: 21, name: "exchanged subject tokens", table: "exchanged_tokens", key: "token_hash")
}
