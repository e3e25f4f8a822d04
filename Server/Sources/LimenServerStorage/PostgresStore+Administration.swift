import Foundation

extension PostgresStore {
    /// One statement: the data-modifying CTEs, the user's deletion and the events' insert commit together (sessions and
    /// consents go through their foreign keys).
    @discardableResult
    public func deleteUser(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool {
        let recorded = SecurityEventRecord.insert(events, when: Self.changeHappened).map { insert -> SQLQuery in
            ", recorded AS (\(insert))"
        }
        let deleted =
            !(try await execute(
                """
                WITH grants_removed AS (DELETE FROM grants WHERE subject = \(id)),
                    codes_removed AS (DELETE FROM authorization_codes WHERE subject = \(id)),
                    change AS (DELETE FROM users WHERE id = \(id) RETURNING id)\(recorded ?? "")
                SELECT * FROM change
                """
            )).isEmpty
        if deleted { SecurityEventMetrics.count(events) }
        return deleted
    }
}

extension PostgresStore {
    /// One statement, as ``deleteUser(id:)``: the guests chosen and everything they hold go together.
    @discardableResult
    public func deleteAnonymousUsers(inactiveSince date: Date) async throws(StorageError) -> Int {
        try await execute(
            """
            WITH stale AS (\(staleGuestIDs(inactiveSince: date))),
                grants_removed AS (DELETE FROM grants WHERE subject IN (SELECT id FROM stale)),
                codes_removed AS (DELETE FROM authorization_codes WHERE subject IN (SELECT id FROM stale))
            DELETE FROM users WHERE id IN (SELECT id FROM stale) RETURNING id
            """
        ).count
    }
}
