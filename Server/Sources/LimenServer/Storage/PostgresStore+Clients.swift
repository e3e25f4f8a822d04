import Foundation
import PostgresNIO

extension PostgresStore {
    public func client(id: String) async throws(StorageError) -> ClientRecord? {
        try await rows("SELECT * FROM clients WHERE id = \(id)").first.map(Self.client(from:))
    }

    public func clients() async throws(StorageError) -> [ClientRecord] {
        try await rows("SELECT * FROM clients ORDER BY id").map(Self.client(from:))
    }

    @discardableResult
    public func insertClientIfAbsent(_ client: ClientRecord) async throws(StorageError) -> Bool {
        let inserted = try await rows(
            """
            INSERT INTO clients (id, name, kind, secret_hash, is_native, redirect_uris, post_logout_redirect_uris,
                grant_types, is_first_party, id_token_signed_response_alg, access_token_ttl, refresh_token_ttl,
                allows_no_pkce, created_at)
            VALUES (\(client.id), \(client.name), \(client.kind.rawValue), \(client.secretHash.map(Self.bytes)), \(client.isNative),
                \(Self.json(client.redirectURIs)), \(Self.json(client.postLogoutRedirectURIs)),
                \(Self.json(client.grantTypes)), \(client.isFirstParty), \(client.idTokenSignedResponseAlg),
                \(client.accessTokenLifetime.map(Self.wholeSeconds)), \(client.refreshTokenLifetime.map(Self.wholeSeconds)),
                \(client.allowsNoPKCE), \(Self.seconds(client.createdAt)))
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """
        )
        return !inserted.isEmpty
    }

    @discardableResult
    public func deleteClient(id: String) async throws(StorageError) -> Bool {
        !(try await rows("DELETE FROM clients WHERE id = \(id) RETURNING id")).isEmpty
    }

    private static func client(from row: PostgresRandomAccessRow) throws(StorageError) -> ClientRecord {
        guard let kind = ClientRecord.Kind(rawValue: try value(row, "kind", as: String.self)) else {
            throw .corruptRow("clients.kind is not public or confidential")
        }
        return ClientRecord(
            id: try value(row, "id", as: String.self),
            name: try value(row, "name", as: String.self),
            kind: kind,
            secretHash: try optional(row, "secret_hash", as: Data.self),
            isNative: try value(row, "is_native", as: Bool.self),
            redirectURIs: try strings(row, "redirect_uris"),
            postLogoutRedirectURIs: try strings(row, "post_logout_redirect_uris"),
            grantTypes: try strings(row, "grant_types"),
            isFirstParty: try value(row, "is_first_party", as: Bool.self),
            idTokenSignedResponseAlg: try value(row, "id_token_signed_response_alg", as: String.self),
            accessTokenLifetime: try optional(row, "access_token_ttl", as: Int64.self).map(TimeInterval.init),
            refreshTokenLifetime: try optional(row, "refresh_token_ttl", as: Int64.self).map(TimeInterval.init),
            allowsNoPKCE: try value(row, "allows_no_pkce", as: Bool.self),
            createdAt: try date(row, "created_at")
        )
    }

    // MARK: Signing keys

    public func signingKeys() async throws(StorageError) -> [SigningKeyRecord] {
        try await rows("SELECT * FROM signing_keys ORDER BY created_at, kid").map { row throws(StorageError) in
            SigningKeyRecord(
                kid: try Self.value(row, "kid", as: String.self),
                algorithm: try Self.value(row, "algorithm", as: String.self),
                encryptedPrivateKey: try Self.value(row, "encrypted_private_key", as: Data.self),
                createdAt: try Self.date(row, "created_at"),
                activatesAt: try Self.optionalDate(row, "activates_at"),
                retiredAt: try Self.optionalDate(row, "retired_at")
            )
        }
    }

    public func insertSigningKey(_ key: SigningKeyRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO signing_keys (kid, algorithm, encrypted_private_key, created_at, activates_at, retired_at)
            VALUES (\(key.kid), \(key.algorithm), \(Self.bytes(key.encryptedPrivateKey)), \(Self.seconds(key.createdAt)),
                \(Self.seconds(key.activatesAt)), \(key.retiredAt.map(Self.seconds)))
            """
        )
    }

    public func retireSigningKey(kid: String, at date: Date) async throws(StorageError) {
        try await rows("UPDATE signing_keys SET retired_at = \(Self.seconds(date)) WHERE kid = \(kid)")
    }

    // MARK: Authorization codes

    public func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, subject, scope, nonce,
                code_challenge, auth_time, expires_at, browser_session_hash)
            VALUES (\(Self.bytes(code.codeHash)), \(code.clientID), \(code.redirectURI), \(code.subject), \(code.scope),
                \(code.nonce), \(code.codeChallenge), \(Self.seconds(code.authTime)), \(Self.seconds(code.expiresAt)),
                \(code.browserSessionHash.map(Self.bytes)))
            """
        )
    }

    @discardableResult
    public func deleteExpiredAuthorizationCodes(before date: Date) async throws(StorageError) -> Int {
        try await rows("DELETE FROM authorization_codes WHERE expires_at <= \(Self.seconds(date)) RETURNING 1").count
    }
}
