import Foundation

/// A user's sessions, written once for both dialects; read by subject through the indexes of
/// ``SchemaMigrations/grantsBySubject`` and the browser sessions' own.
extension SQLStore {
    public func activeGrants(subject: String, at date: Date) async throws(StorageError) -> [GrantRecord] {
        try await read(
            """
            SELECT * FROM grants WHERE subject = \(subject) AND revoked_at IS NULL AND expires_at > \(date)
            ORDER BY created_at DESC, id
            """
        ).map { row throws(StorageError) in try GrantRecord(row: row) }
    }

    public func browserSessions(subject: String, now: Date) async throws(StorageError) -> [BrowserSessionRecord] {
        try await read(
            "SELECT * FROM browser_sessions WHERE subject = \(subject) AND expires_at > \(now) ORDER BY auth_time DESC"
        ).map { row throws(StorageError) in try BrowserSessionRecord(row: row) }
    }
}

extension SchemaMigrations {
    /// Version 33: grants found by their user (signing a user out everywhere, disabling or deleting them, listing their
    /// sessions) without reading every grant.
    static let grantsBySubject = SchemaMigration(
        version: 33,
        name: "grants by subject",
        changes: [.createIndex(name: "grants_subject", table: "grants", columns: ["subject"])])
}
