import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func insertBrowserSession(_ session: BrowserSessionRecord) async throws(StorageError) {
        try await query(
            "INSERT INTO browser_sessions (id_hash, subject, auth_time, expires_at) VALUES (?, ?, ?, ?)",
            [
                Self.blob(session.idHash), .text(session.subject), Self.time(session.authTime),
                Self.time(session.expiresAt),
            ]
        )
    }

    public func browserSession(idHash: Data, now: Date) async throws(StorageError) -> BrowserSessionRecord? {
        let rows = try await query(
            "SELECT * FROM browser_sessions WHERE id_hash = ? AND expires_at > ?",
            [Self.blob(idHash), Self.time(now)]
        )
        guard let row = rows.first else { return nil }
        return BrowserSessionRecord(
            idHash: try Self.data(row, "id_hash"),
            subject: try Self.text(row, "subject"),
            authTime: try Self.date(row, "auth_time"),
            expiresAt: try Self.date(row, "expires_at")
        )
    }

    @discardableResult
    public func deleteBrowserSession(idHash: Data) async throws(StorageError) -> Bool {
        !(try await query("DELETE FROM browser_sessions WHERE id_hash = ? RETURNING 1", [Self.blob(idHash)])).isEmpty
    }

    @discardableResult
    public func deleteExpiredBrowserSessions(before date: Date) async throws(StorageError) -> Int {
        try await query("DELETE FROM browser_sessions WHERE expires_at <= ? RETURNING 1", [Self.time(date)]).count
    }
}
