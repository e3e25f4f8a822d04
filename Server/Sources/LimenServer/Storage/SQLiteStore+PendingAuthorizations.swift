import Foundation
import NIOCore
import SQLiteNIO

extension SQLiteStore {
    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO pending_authorizations (id_hash, client_id, redirect_uri, scope, state, nonce, code_challenge,
                prompt, max_age, login_hint, hinted_subject, ui_locales, device_code_hash, browser_binding,
                sign_in_session_hash, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                Self.blob(request.idHash), .text(request.clientID), .text(request.redirectURI), .text(request.scope),
                Self.optional(request.state), Self.optional(request.nonce), Self.optional(request.codeChallenge),
                Self.optional(request.prompt), request.maxAge.map { .integer($0) } ?? .null,
                Self.optional(request.loginHint), Self.optional(request.hintedSubject),
                Self.optional(request.uiLocales), Self.blob(request.deviceCodeHash), Self.blob(request.browserBinding),
                Self.blob(request.signInSessionHash), Self.time(request.createdAt), Self.time(request.expiresAt),
            ]
        )
    }

    public func pendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        let rows = try await query(
            "SELECT * FROM pending_authorizations WHERE id_hash = ? AND expires_at > ?",
            [Self.blob(idHash), Self.time(now)]
        )
        return try rows.first.map(Self.pendingAuthorization(from:))
    }

    public func consumePendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        // One statement: of two racing submissions, one gets the row.
        let rows = try await query(
            "DELETE FROM pending_authorizations WHERE id_hash = ? RETURNING *",
            [Self.blob(idHash)]
        )
        guard let record = try rows.first.map(Self.pendingAuthorization(from:)) else { return nil }
        return record.expiresAt > now ? record : nil
    }

    @discardableResult
    public func recordPendingAuthorizationSignIn(idHash: Data, sessionHash: Data, now: Date) async throws(StorageError)
        -> Bool
    {
        let updated = try await query(
            """
            UPDATE pending_authorizations SET sign_in_session_hash = ?
            WHERE id_hash = ? AND expires_at > ? RETURNING 1
            """,
            [Self.blob(sessionHash), Self.blob(idHash), Self.time(now)]
        )
        return !updated.isEmpty
    }

    @discardableResult
    public func deleteExpiredPendingAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await query(
            "DELETE FROM pending_authorizations WHERE expires_at <= ? RETURNING 1",
            [Self.time(date)]
        ).count
    }

    /// Text, or NULL.
    static func optional(_ text: String?) -> SQLiteData {
        text.map(SQLiteData.text) ?? .null
    }

    private static func pendingAuthorization(from row: SQLiteRow) throws(StorageError) -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            idHash: try data(row, "id_hash"),
            clientID: try text(row, "client_id"),
            redirectURI: try text(row, "redirect_uri"),
            scope: try text(row, "scope"),
            state: row.column("state")?.string,
            nonce: row.column("nonce")?.string,
            codeChallenge: row.column("code_challenge")?.string,
            prompt: row.column("prompt")?.string,
            maxAge: row.column("max_age")?.integer,
            loginHint: row.column("login_hint")?.string,
            hintedSubject: row.column("hinted_subject")?.string,
            uiLocales: row.column("ui_locales")?.string,
            deviceCodeHash: row.column("device_code_hash")?.blob.map { Data($0.readableBytesView) },
            browserBinding: row.column("browser_binding")?.blob.map { Data($0.readableBytesView) },
            signInSessionHash: row.column("sign_in_session_hash")?.blob.map { Data($0.readableBytesView) },
            createdAt: try date(row, "created_at"),
            expiresAt: try date(row, "expires_at")
        )
    }
}
