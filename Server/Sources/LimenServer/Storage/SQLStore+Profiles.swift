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

    /// On the read path: `GET /v1/me/data` reads it on every call.
    public func profile(userID: String) async throws(StorageError) -> ProfileRecord? {
        try await read("SELECT * FROM profiles WHERE user_id = \(userID)").first.map { row throws(StorageError) in
            let text = try row.text("data")
            guard case .object(let data)? = try? JSONValue(parsing: Array(text.utf8)) else {
                throw .corruptRow("data is not a JSON object")
            }
            return ProfileRecord(
                userID: try row.text("user_id"), data: data, revision: try row.integer("revision"),
                updatedAt: try row.date("updated_at"))
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
