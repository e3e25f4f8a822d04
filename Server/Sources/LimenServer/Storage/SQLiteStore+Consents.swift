import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func grantedScopes(subject: String, clientID: String) async throws(StorageError) -> Set<String> {
        let rows = try await query(
            "SELECT scope FROM consents WHERE subject = ? AND client_id = ?",
            [.text(subject), .text(clientID)]
        )
        return Set(rows.compactMap { $0.column("scope")?.string })
    }

    public func recordConsent(
        subject: String,
        clientID: String,
        scopes: Set<String>,
        at date: Date
    ) async throws(StorageError) {
        // One row per scope: each insert stands alone, so concurrent grants add up rather than overwrite.
        for scope in scopes.sorted() {
            try await query(
                """
                INSERT INTO consents (subject, client_id, scope, granted_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (subject, client_id, scope) DO UPDATE SET granted_at = excluded.granted_at
                """,
                [.text(subject), .text(clientID), .text(scope), Self.time(date)]
            )
        }
    }
}
