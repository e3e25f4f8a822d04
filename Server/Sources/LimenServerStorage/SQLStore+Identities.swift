import Foundation

/// Identities, written once for both dialects.
extension SQLStore {
    public func identities(userID: String) async throws(StorageError) -> [IdentityRecord] {
        try await execute(
            "SELECT * FROM identities WHERE user_id = \(userID) ORDER BY created_at, kind, subject"
        ).map { row throws(StorageError) in
            IdentityRecord(
                kind: try row.text("kind"), subject: try row.text("subject"), userID: try row.text("user_id"),
                createdAt: try row.date("created_at"))
        }
    }

    public func linkEmail(
        _ email: String,
        passwordHash: String?,
        name: String?,
        emailVerified: Bool,
        toAnonymousUser userID: String,
        recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> Bool {
        // The identities' triggers add the password and email identities in this statement; `email IS NULL` settles
        // two upgrades of one user, the address's uniqueness two users racing for one address.
        !(try await execute(
            """
            UPDATE users SET email = \(email), password_hash = \(passwordHash), email_verified = \(emailVerified),
                name = COALESCE(\(name), name)
            WHERE id = \(userID) AND email IS NULL
                AND NOT EXISTS (SELECT 1 FROM identities WHERE user_id = \(userID))
                AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email = \(email))
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    public func user(identityKind kind: String, subject: String) async throws(StorageError) -> UserRecord? {
        try await read(
            """
            SELECT \(.userColumns) FROM users
            WHERE id = (SELECT user_id FROM identities WHERE kind = \(kind) AND subject = \(subject))
            """
        ).first.map { row throws(StorageError) in try UserRecord(row: row) }
    }

    public func insertIdentityIfAbsent(_ identity: IdentityRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            INSERT INTO identities (kind, subject, user_id, created_at)
            VALUES (\(identity.kind), \(identity.subject), \(identity.userID), \(identity.createdAt))
            ON CONFLICT DO NOTHING
            RETURNING kind
            """,
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func deleteUnusedUser(id: String) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            DELETE FROM users WHERE id = \(id)
                AND NOT EXISTS (SELECT 1 FROM identities WHERE user_id = \(id))
                AND NOT EXISTS (SELECT 1 FROM grants WHERE subject = \(id))
            RETURNING id
            """
        )).isEmpty
    }

    public func adoptVerifiedEmail(_ email: String, userID: String) async throws(StorageError) -> Bool {
        // The identities' triggers add the `email` identity in this statement.
        !(try await execute(
            """
            UPDATE users SET email = \(email), email_verified = \(true)
            WHERE id = \(userID) AND email IS NULL
                AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email = \(email))
            RETURNING id
            """
        )).isEmpty
    }

    public func unlinkIdentity(kind: String, userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> IdentityUnlinking
    {
        // The identities that go: the address takes the password's identity with it.
        let going = IdentityRecord.kinds(goingWith: kind)
        let (first, second) = (going[0], going.count > 1 ? going[1] : going[0])
        let othersRemain: SQLQuery = """
            (SELECT COUNT(*) FROM identities
                WHERE user_id = \(userID) AND kind <> \(first) AND kind <> \(second)) > 0
            """
        let changed: [Row]
        switch kind {
        case IdentityRecord.passwordKind:
            changed = try await execute(
                """
                UPDATE users SET password_hash = NULL
                WHERE id = \(userID) AND password_hash IS NOT NULL AND email IS NOT NULL AND \(othersRemain)
                RETURNING id
                """, recording: events)
        case IdentityRecord.emailKind:
            changed = try await execute(
                """
                UPDATE users SET email = NULL, password_hash = NULL, email_verified = \(false)
                WHERE id = \(userID) AND email IS NOT NULL AND \(othersRemain)
                RETURNING id
                """, recording: events)
        default:
            changed = try await execute(
                """
                DELETE FROM identities WHERE user_id = \(userID) AND kind = \(kind) AND \(othersRemain)
                RETURNING kind
                """, recording: events)
        }
        if !changed.isEmpty { return .unlinked }
        let linked = try await execute(
            "SELECT 1 FROM identities WHERE user_id = \(userID) AND kind = \(kind)")
        return linked.isEmpty ? .notLinked : .lastIdentity
    }

    /// The IDs of the anonymous users ``IdentityStore/deleteAnonymousUsers(inactiveSince:)`` deletes, as a subquery.
    func staleGuestIDs(inactiveSince date: Date) -> SQLQuery {
        """
        SELECT id FROM users
        WHERE created_at < \(date)
            AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.user_id = users.id)
            AND NOT EXISTS (
                SELECT 1 FROM grants g JOIN refresh_tokens t ON t.grant_id = g.id
                WHERE g.subject = users.id AND t.issued_at >= \(date))
        """
    }
}
