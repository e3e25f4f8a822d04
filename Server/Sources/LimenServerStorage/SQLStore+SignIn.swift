import Foundation

/// Pending authorization requests, browser sessions and consents, written once for both dialects.
extension SQLStore {
    // MARK: Pending authorization requests

    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO pending_authorizations (id_hash, client_id, redirect_uri, scope, state, nonce, code_challenge,
                prompt, max_age, login_hint, hinted_subject, ui_locales, device_code_hash, browser_binding,
                sign_in_session_hash, created_at, expires_at, acr_values, dpop_jkt)
            VALUES (\(request.idHash), \(request.clientID), \(request.redirectURI), \(request.scope), \(request.state),
                \(request.nonce), \(request.codeChallenge), \(request.prompt), \(request.maxAge), \(request.loginHint),
                \(request.hintedSubject), \(request.uiLocales), \(request.deviceCodeHash), \(request.browserBinding),
                \(request.signInSessionHash), \(request.createdAt), \(request.expiresAt), \(request.acrValues),
                \(request.proofKey))
            """
        )
    }

    public func pendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        try await execute(
            "SELECT * FROM pending_authorizations WHERE id_hash = \(idHash) AND expires_at > \(now)"
        ).first.map { row throws(StorageError) in try PendingAuthorizationRecord(row: row) }
    }

    public func consumePendingAuthorization(idHash: Data, now: Date) async throws(StorageError)
        -> PendingAuthorizationRecord?
    {
        // One statement: of two racing submissions, one gets the row.
        let record = try await execute(
            "DELETE FROM pending_authorizations WHERE id_hash = \(idHash) RETURNING *"
        ).first.map { row throws(StorageError) in try PendingAuthorizationRecord(row: row) }
        guard let record, record.expiresAt > now else { return nil }
        return record
    }

    @discardableResult
    public func recordPendingAuthorizationSignIn(idHash: Data, sessionHash: Data, now: Date) async throws(StorageError)
        -> Bool
    {
        !(try await execute(
            """
            UPDATE pending_authorizations SET sign_in_session_hash = \(sessionHash)
            WHERE id_hash = \(idHash) AND expires_at > \(now) RETURNING 1
            """
        )).isEmpty
    }

    @discardableResult
    public func deleteExpiredPendingAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM pending_authorizations WHERE expires_at <= \(date) RETURNING 1").count
    }

    // MARK: Browser sessions

    public func insertBrowserSession(_ session: BrowserSessionRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO browser_sessions (id_hash, subject, auth_time, expires_at, amr)
            VALUES (\(session.idHash), \(session.subject), \(session.authTime), \(session.expiresAt),
                \(session.methods.stored))
            """
        )
    }

    public func browserSession(idHash: Data, now: Date) async throws(StorageError) -> BrowserSessionRecord? {
        try await execute(
            "SELECT * FROM browser_sessions WHERE id_hash = \(idHash) AND expires_at > \(now)"
        ).first.map { row throws(StorageError) in try BrowserSessionRecord(row: row) }
    }

    @discardableResult
    public func deleteBrowserSession(idHash: Data) async throws(StorageError) -> Bool {
        try await deleteBrowserSession(idHash: idHash, recording: [])
    }

    public func deleteBrowserSession(idHash: Data, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        !(try await execute("DELETE FROM browser_sessions WHERE id_hash = \(idHash) RETURNING 1", recording: events))
            .isEmpty
    }

    @discardableResult
    public func deleteEverySession(subject: String, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        !(try await execute(
            "SELECT id FROM users WHERE id = \(subject)",
            followedBy: { whenChanged in Self.endingEverySession(of: subject, when: whenChanged) },
            recording: events
        )).isEmpty
    }

    /// The follow-ups (``execute(_:followedBy:recording:)``) that sign `subject` out everywhere, when `condition`
    /// holds: their grants, authorization codes, device authorizations and browser sessions deleted in one unit.
    static func endingEverySession(of subject: String, when condition: SQLQuery) -> [SQLQuery] {
        ["grants", "authorization_codes", "device_authorizations", "browser_sessions"].map { table in
            "DELETE FROM \(SQLQuery(stringLiteral: table)) WHERE subject = \(subject) AND \(condition)"
        }
    }

    @discardableResult
    public func deleteExpiredBrowserSessions(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM browser_sessions WHERE expires_at <= \(date) RETURNING 1").count
    }

    // MARK: Consents

    public func grantedScopes(subject: String, clientID: String) async throws(StorageError) -> Set<String> {
        let granted = try await execute(
            "SELECT scope FROM consents WHERE subject = \(subject) AND client_id = \(clientID)"
        ).map { row throws(StorageError) in try row.text("scope") }
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
            try await execute(
                """
                INSERT INTO consents (subject, client_id, scope, granted_at)
                VALUES (\(subject), \(clientID), \(scope), \(date))
                ON CONFLICT (subject, client_id, scope) DO UPDATE SET granted_at = excluded.granted_at
                """
            )
        }
    }
}

extension PendingAuthorizationRecord {
    /// The request in a row of `pending_authorizations`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            idHash: try row.data("id_hash"),
            clientID: try row.text("client_id"),
            redirectURI: try row.text("redirect_uri"),
            scope: try row.text("scope"),
            state: try row.optionalText("state"),
            nonce: try row.optionalText("nonce"),
            codeChallenge: try row.optionalText("code_challenge"),
            prompt: try row.optionalText("prompt"),
            maxAge: try row.optionalInteger("max_age"),
            loginHint: try row.optionalText("login_hint"),
            hintedSubject: try row.optionalText("hinted_subject"),
            uiLocales: try row.optionalText("ui_locales"),
            deviceCodeHash: try row.optionalData("device_code_hash"),
            browserBinding: try row.optionalData("browser_binding"),
            signInSessionHash: try row.optionalData("sign_in_session_hash"),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"),
            acrValues: try row.optionalText("acr_values"),
            proofKey: try row.optionalText("dpop_jkt")
        )
    }
}

extension BrowserSessionRecord {
    /// The session in `row` of `browser_sessions`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            idHash: try row.data("id_hash"),
            subject: try row.text("subject"),
            authTime: try row.date("auth_time"),
            expiresAt: try row.date("expires_at"),
            methods: AuthenticationMethods(stored: try row.optionalText("amr"))
        )
    }
}
