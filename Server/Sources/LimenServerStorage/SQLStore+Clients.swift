import Foundation
import LimenServerWire

/// Clients, signing keys and the insertion and sweep of authorization codes, written once for both dialects.
extension SQLStore {
    // MARK: Clients

    public func client(id: String) async throws(StorageError) -> ClientRecord? {
        try await execute("SELECT * FROM clients WHERE id = \(id)").first.map { row throws(StorageError) in
            try ClientRecord(row: row)
        }
    }

    public func clients() async throws(StorageError) -> [ClientRecord] {
        try await execute("SELECT * FROM clients ORDER BY id").map { row throws(StorageError) in
            try ClientRecord(row: row)
        }
    }

    @discardableResult
    public func insertClientIfAbsent(_ client: ClientRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            INSERT INTO clients (id, name, kind, secret_hash, is_native, redirect_uris, post_logout_redirect_uris,
                grant_types, is_first_party, id_token_signed_response_alg, access_token_ttl, refresh_token_ttl,
                allows_no_pkce, branding, created_at, email_link_uri, app2app_host, dpop_bound_access_tokens,
                required_acr)
            VALUES (\(client.id), \(client.name), \(client.kind.rawValue), \(client.secretHash), \(client.isNative),
                \(client.redirectURIs), \(client.postLogoutRedirectURIs), \(client.grantTypes.map(\.rawValue)), \(client.isFirstParty),
                \(client.idTokenSignedResponseAlg.rawValue), \(SQLValue.seconds(client.accessTokenLifetime)),
                \(SQLValue.seconds(client.refreshTokenLifetime)), \(client.allowsNoPKCE),
                \(client.branding.map(ClientBranding.encoded)), \(client.createdAt), \(client.emailLinkURI),
                \(client.isAppToAppHost), \(client.requiresDPoP), \(client.requiredACR))
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func deleteClient(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool {
        !(try await execute("DELETE FROM clients WHERE id = \(id) RETURNING id", recording: events)).isEmpty
    }

    @discardableResult
    public func updateClientBranding(id: String, branding: ClientBranding?, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            "UPDATE clients SET branding = \(branding.map(ClientBranding.encoded)) WHERE id = \(id) RETURNING id",
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func updateClientSettings(_ client: ClientRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            UPDATE clients SET name = \(client.name), redirect_uris = \(client.redirectURIs),
                post_logout_redirect_uris = \(client.postLogoutRedirectURIs),
                access_token_ttl = \(SQLValue.seconds(client.accessTokenLifetime)),
                refresh_token_ttl = \(SQLValue.seconds(client.refreshTokenLifetime))
            WHERE id = \(client.id)
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    @discardableResult
    public func replaceClientSecret(id: String, secretHash: Data, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            UPDATE clients SET secret_hash = \(secretHash)
            WHERE id = \(id) AND kind = \(ClientRecord.Kind.confidential.rawValue)
            RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    // MARK: Signing keys

    public func signingKeys() async throws(StorageError) -> [SigningKeyRecord] {
        try await execute("SELECT * FROM signing_keys ORDER BY created_at, kid").map { row throws(StorageError) in
            SigningKeyRecord(
                kid: try row.text("kid"),
                algorithm: try row.text("algorithm"),
                encryptedPrivateKey: try row.data("encrypted_private_key"),
                createdAt: try row.date("created_at"),
                activatesAt: try row.optionalDate("activates_at"),
                retiredAt: try row.optionalDate("retired_at")
            )
        }
    }

    public func insertSigningKey(_ key: SigningKeyRecord, recording events: [SecurityEventRecord])
        async throws(StorageError)
    {
        try await execute(
            """
            INSERT INTO signing_keys (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at)
            VALUES (\(key.kid), \(key.algorithm), \(key.encryptedPrivateKey), \(key.createdAt), \(key.activatesAt),
                \(key.retiredAt))
            RETURNING kid
            """,
            recording: events
        )
    }

    public func retireSigningKey(kid: String, at date: Date) async throws(StorageError) {
        try await execute("UPDATE signing_keys SET retired_at = \(date) WHERE kid = \(kid)")
    }

    // MARK: Authorization codes

    public func insertAuthorizationCode(_ code: AuthorizationCodeRecord, recording events: [SecurityEventRecord])
        async throws(StorageError)
    {
        try await execute(
            """
            INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, subject, scope, nonce,
                code_challenge, auth_time, expires_at, browser_session_hash, amr, dpop_jkt)
            VALUES (\(code.codeHash), \(code.clientID), \(code.redirectURI), \(code.subject), \(code.scope),
                \(code.nonce), \(code.codeChallenge), \(code.authTime), \(code.expiresAt), \(code.browserSessionHash),
                \(code.methods.stored), \(code.proofKey))
            RETURNING 1
            """,
            recording: events
        )
    }

    @discardableResult
    public func deleteExpiredAuthorizationCodes(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM authorization_codes WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension ClientRecord {
    /// The client in a row of `clients`.
    init(row: some SQLRow) throws(StorageError) {
        guard let kind = Kind(rawValue: try row.text("kind")) else {
            throw .corruptRow("clients.kind is not public or confidential")
        }
        self.init(
            id: try row.text("id"),
            name: try row.text("name"),
            kind: kind,
            secretHash: try row.optionalData("secret_hash"),
            isNative: try row.bool("is_native"),
            redirectURIs: try row.strings("redirect_uris"),
            postLogoutRedirectURIs: try row.strings("post_logout_redirect_uris"),
            grantTypes: try row.values("grant_types", as: GrantType.self),
            isFirstParty: try row.bool("is_first_party"),
            idTokenSignedResponseAlg: try row.value("id_token_signed_response_alg", as: SigningAlgorithm.self),
            accessTokenLifetime: try row.optionalSeconds("access_token_ttl"),
            refreshTokenLifetime: try row.optionalSeconds("refresh_token_ttl"),
            allowsNoPKCE: try row.bool("allows_no_pkce"),
            branding: try row.optionalText("branding").map { text throws(StorageError) in
                try ClientBranding.decoded(text)
            },
            createdAt: try row.date("created_at"),
            emailLinkURI: try row.optionalText("email_link_uri"),
            isAppToAppHost: try row.bool("app2app_host"),
            requiresDPoP: try row.bool("dpop_bound_access_tokens"),
            requiredACR: try row.optionalText("required_acr")
        )
    }
}

extension AuthorizationCodeRecord {
    /// The code in a row of `authorization_codes`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            codeHash: try row.data("code_hash"),
            clientID: try row.text("client_id"),
            redirectURI: try row.text("redirect_uri"),
            subject: try row.text("subject"),
            scope: try row.text("scope"),
            nonce: try row.optionalText("nonce"),
            codeChallenge: try row.optionalText("code_challenge"),
            authTime: try row.date("auth_time"),
            expiresAt: try row.date("expires_at"),
            browserSessionHash: try row.optionalData("browser_session_hash"),
            methods: AuthenticationMethods(stored: try row.optionalText("amr")),
            proofKey: try row.optionalText("dpop_jkt")
        )
    }
}
