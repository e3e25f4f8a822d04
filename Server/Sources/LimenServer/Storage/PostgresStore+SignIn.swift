import Foundation
import PostgresNIO

extension PostgresStore {
    // MARK: Pending authorization requests

    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO pending_authorizations (id_hash, client_id, redirect_uri, scope, state, nonce, code_challenge,
                prompt, max_age, login_hint, hinted_subject, ui_locales, device_code_hash, browser_binding,
                sign_in_session_hash, created_at, expires_at)
            VALUES (\(Self.bytes(request.idHash)), \(request.clientID), \(request.redirectURI), \(request.scope),
                \(request.state), \(request.nonce), \(request.codeChallenge), \(request.prompt),
                \(request.maxAge.map(Int64.init)), \(request.loginHint), \(request.hintedSubject), \(request.uiLocales),
                \(request.deviceCodeHash.map(Self.bytes)), \(request.browserBinding.map(Self.bytes)),
                \(request.signInSessionHash.map(Self.bytes)), \(Self.seconds(request.createdAt)),
                \(Self.seconds(request.expiresAt)))
            """
        )
    }

    public func pendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        try await rows(
            """
            SELECT * FROM pending_authorizations
            WHERE id_hash = \(Self.bytes(idHash)) AND expires_at > \(Self.seconds(now))
            """
        ).first.map(Self.pendingAuthorization(from:))
    }

    public func consumePendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        // One statement: of two racing submissions, one gets the row.
        let record = try await rows(
            "DELETE FROM pending_authorizations WHERE id_hash = \(Self.bytes(idHash)) RETURNING *"
        ).first.map(Self.pendingAuthorization(from:))
        guard let record, record.expiresAt > now else { return nil }
        return record
    }

    @discardableResult
    public func recordPendingAuthorizationSignIn(idHash: Data, sessionHash: Data, now: Date) async throws(StorageError)
        -> Bool
    {
        let updated = try await rows(
            """
            UPDATE pending_authorizations SET sign_in_session_hash = \(Self.bytes(sessionHash))
            WHERE id_hash = \(Self.bytes(idHash)) AND expires_at > \(Self.seconds(now)) RETURNING 1
            """
        )
        return !updated.isEmpty
    }

    @discardableResult
    public func deleteExpiredPendingAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await rows(
            "DELETE FROM pending_authorizations WHERE expires_at <= \(Self.seconds(date)) RETURNING 1"
        ).count
    }

    private static func pendingAuthorization(from row: PostgresRandomAccessRow) throws(StorageError)
        -> PendingAuthorizationRecord
    {
        PendingAuthorizationRecord(
            idHash: try value(row, "id_hash", as: Data.self),
            clientID: try value(row, "client_id", as: String.self),
            redirectURI: try value(row, "redirect_uri", as: String.self),
            scope: try value(row, "scope", as: String.self),
            state: try optional(row, "state", as: String.self),
            nonce: try optional(row, "nonce", as: String.self),
            codeChallenge: try optional(row, "code_challenge", as: String.self),
            prompt: try optional(row, "prompt", as: String.self),
            maxAge: try optional(row, "max_age", as: Int.self),
            loginHint: try optional(row, "login_hint", as: String.self),
            hintedSubject: try optional(row, "hinted_subject", as: String.self),
            uiLocales: try optional(row, "ui_locales", as: String.self),
            deviceCodeHash: try optional(row, "device_code_hash", as: Data.self),
            browserBinding: try optional(row, "browser_binding", as: Data.self),
            signInSessionHash: try optional(row, "sign_in_session_hash", as: Data.self),
            createdAt: try date(row, "created_at"),
            expiresAt: try date(row, "expires_at")
        )
    }

    // MARK: Browser sessions

    public func insertBrowserSession(_ session: BrowserSessionRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO browser_sessions (id_hash, subject, auth_time, expires_at)
            VALUES (\(Self.bytes(session.idHash)), \(session.subject), \(Self.seconds(session.authTime)),
                \(Self.seconds(session.expiresAt)))
            """
        )
    }

    public func browserSession(idHash: Data, now: Date) async throws(StorageError) -> BrowserSessionRecord? {
        try await rows(
            """
            SELECT * FROM browser_sessions WHERE id_hash = \(Self.bytes(idHash)) AND expires_at > \(Self.seconds(now))
            """
        ).first.map { row throws(StorageError) in
            BrowserSessionRecord(
                idHash: try Self.value(row, "id_hash", as: Data.self),
                subject: try Self.value(row, "subject", as: String.self),
                authTime: try Self.date(row, "auth_time"),
                expiresAt: try Self.date(row, "expires_at")
            )
        }
    }

    @discardableResult
    public func deleteBrowserSession(idHash: Data) async throws(StorageError) -> Bool {
        !(try await rows("DELETE FROM browser_sessions WHERE id_hash = \(Self.bytes(idHash)) RETURNING 1")).isEmpty
    }

    @discardableResult
    public func deleteExpiredBrowserSessions(before date: Date) async throws(StorageError) -> Int {
        try await rows("DELETE FROM browser_sessions WHERE expires_at <= \(Self.seconds(date)) RETURNING 1").count
    }

    // MARK: Consents

    public func grantedScopes(subject: String, clientID: String) async throws(StorageError) -> Set<String> {
        let granted = try await rows(
            "SELECT scope FROM consents WHERE subject = \(subject) AND client_id = \(clientID)"
        ).map { row throws(StorageError) in try Self.value(row, "scope", as: String.self) }
        return Set(granted)
    }

    public func recordConsent(
        subject: String,
        clientID: String,
        scopes: Set<String>,
        at date: Date
    ) async throws(StorageError) {
        // One row per scope: each insert stands alone, so concurrent grants add up rather than overwrite.
        for scope in scopes.sorted() {
            try await rows(
                """
                INSERT INTO consents (subject, client_id, scope, granted_at)
                VALUES (\(subject), \(clientID), \(scope), \(Self.seconds(date)))
                ON CONFLICT (subject, client_id, scope) DO UPDATE SET granted_at = excluded.granted_at
                """
            )
        }
    }
}
