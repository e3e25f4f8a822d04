import Foundation
import LimenWire

/// The app schema and profile data, written once for both dialects.
extension SQLStore {
    public func appSchema() async throws(StorageError) -> AppSchemaRecord? {
        try await read("SELECT * FROM app_schema WHERE id = 1").first.map { row throws(StorageError) in
            AppSchemaRecord(
                document: try row.text("document"), fileDigest: try row.optionalText("file_digest"),
                updatedAt: try row.date("updated_at"))
        }
    }

    public func replaceAppSchema(_ record: AppSchemaRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO app_schema (id, document, file_digest, updated_at)
            VALUES (1, \(record.document), \(record.fileDigest), \(record.updatedAt))
            ON CONFLICT (id) DO UPDATE SET document = excluded.document, file_digest = excluded.file_digest,
                updated_at = excluded.updated_at
            """
        )
    }

    /// On the read path: profile writes read it first.
    public func profile(userID: String) async throws(StorageError) -> ProfileRecord? {
        try await read("SELECT * FROM profiles WHERE user_id = \(userID)").first.map { row throws(StorageError) in
            try ProfileRecord(row: row)
        }
    }

    /// On the read path: `GET /v1/me/data` reads it on every call, the token's state and the data in one statement.
    public func accessTokenStateAndProfile(
        grantID: String,
        jti: String
    ) async throws(StorageError) -> (state: AccessTokenState, profile: ProfileRecord?)? {
        try await read(
            """
            SELECT grants.*, EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = \(jti)) AS token_revoked,
                profiles.user_id AS profile_user_id, profiles.data AS profile_data,
                profiles.revision AS profile_revision, profiles.updated_at AS profile_updated_at
            FROM grants LEFT JOIN profiles ON profiles.user_id = grants.subject
            WHERE grants.id = \(grantID)
            """
        ).first.map { row throws(StorageError) in
            let profile =
                try row.optionalText("profile_data") == nil
                ? nil : try ProfileRecord(row: row, columnPrefix: "profile_")
            return (try AccessTokenState(row: row), profile)
        }
    }

    public func writeProfile(
        userID: String,
        data: [String: JSONValue],
        expectedRevision: Int,
        now: Date
    ) async throws(StorageError) -> Int? {
        let text = String(decoding: JSONValue.object(data).serialized(), as: UTF8.self)
        // The first write inserts (a concurrent first write makes this one insert nothing); later ones compare the
        // revision and set the data in the same statement.
        let rows =
            expectedRevision == 0
            ? try await execute(
                """
                INSERT INTO profiles (user_id, data, revision, updated_at)
                SELECT id, \(text), 1, \(now) FROM users WHERE id = \(userID)
                ON CONFLICT (user_id) DO NOTHING
                RETURNING revision
                """
            )
            : try await execute(
                """
                UPDATE profiles SET data = \(text), revision = revision + 1, updated_at = \(now)
                WHERE user_id = \(userID) AND revision = \(expectedRevision)
                RETURNING revision
                """
            )
        return try rows.first.map { row throws(StorageError) in try row.integer("revision") }
    }
}

extension ProfileRecord {
    /// The profile in `row`, whose profile columns are named with `columnPrefix` (`profile_data`, … when joined).
    init(row: some SQLRow, columnPrefix: String = "") throws(StorageError) {
        guard case .object(let data)? = try? JSONValue(parsing: Array(try row.text(columnPrefix + "data").utf8)) else {
            throw .corruptRow("\(columnPrefix)data is not a JSON object")
        }
        self.init(
            userID: try row.text(columnPrefix + "user_id"), data: data,
            revision: try row.integer(columnPrefix + "revision"),
            updatedAt: try row.date(columnPrefix + "updated_at"))
    }
}
