import Foundation

/// The mail outbox, written once for both dialects.
extension SQLStore {
    public func insertOutboxMail(_ mail: OutboxMailRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO mail_outbox (id, sealed, attempts, claimed_until, claim, created_at, expires_at)
            VALUES (\(mail.id), \(mail.sealed), \(mail.attempts), \(mail.claimedUntil), \(mail.claim),
                \(mail.createdAt), \(mail.expiresAt))
            """
        )
    }

    public func claimOutboxMail(now: Date, until: Date, claim: String, limit: Int) async throws(StorageError)
        -> [OutboxMailRecord]
    {
        // The outer condition is checked again on the rows PostgreSQL locked, so a worker that picked a row another
        // claimed meanwhile does not claim it a second time; SKIP LOCKED lets it pick the next ones instead.
        try await execute(
            """
            UPDATE mail_outbox SET claimed_until = \(until), claim = \(claim), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM mail_outbox WHERE claimed_until <= \(now) AND expires_at > \(now)
                ORDER BY created_at LIMIT \(limit) \(SQLFragment.forUpdateSkipLocked)
            ) AND claimed_until <= \(now)
            RETURNING *
            """
        ).map { row throws(StorageError) in try OutboxMailRecord(row: row) }
    }

    @discardableResult
    public func finishOutboxMail(id: String, claim: String) async throws(StorageError) -> Bool {
        !(try await execute("DELETE FROM mail_outbox WHERE id = \(id) AND claim = \(claim) RETURNING 1").isEmpty)
    }

    public func retryOutboxMail(id: String, claim: String, at retryAt: Date) async throws(StorageError) {
        try await execute(
            "UPDATE mail_outbox SET claimed_until = \(retryAt) WHERE id = \(id) AND claim = \(claim)")
    }

    @discardableResult
    public func deleteExpiredOutboxMail(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM mail_outbox WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension OutboxMailRecord {
    /// The message in a row of `mail_outbox`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            id: try row.text("id"), sealed: try row.data("sealed"), attempts: try row.integer("attempts"),
            claimedUntil: try row.date("claimed_until"), claim: try row.text("claim"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }
}
