import Crypto
import Foundation
import LimenOIDC

/// A user's profile as the server holds it (encrypted fields as their JWE), the `ETag` it came with and the app schema
/// it was read under: what a write's `If-Match` names, and what is cached for offline reads.
struct ProfileSnapshot: Sendable, Equatable {
    /// Whose profile it is (`sub`).
    var userID: String
    /// The strong `ETag` of its revision, if the server sent one.
    var etag: String?
    /// The fields, as stored on the server.
    var data: [String: JSONValue]
    /// The app schema.
    var schema: AppSchema

    /// The snapshot of a profile route's `200` answer: `{"data": {NAME: value}}` and its `ETag`.
    init(userID: String, response: HTTPResponse, schema: AppSchema) throws(ProfileError) {
        guard let document = try? JSONValue(parsing: response.body),
            let data = document.objectValue?["data"]?.objectValue
        else { throw .malformedResponse("the profile is not a {\"data\": {…}} object") }
        self.init(userID: userID, etag: response.header("ETag"), data: data, schema: schema)
    }

    init(userID: String, etag: String?, data: [String: JSONValue], schema: AppSchema) {
        self.userID = userID
        self.etag = etag
        self.data = data
        self.schema = schema
    }
}

/// The last profile snapshot of each user, in the client's secure store under
/// `<namespace>.profile.<base64url(SHA-256(user ID))>`: read when the server cannot be reached, deleted at sign-out.
struct ProfileCache: Sendable {
    let store: any SecureStore
    let namespace: String

    /// The store key of `userID`'s snapshot.
    func storageKey(for userID: String) -> String {
        "\(namespace).profile.\(Base64URL.encode(SHA256.hash(data: Data(userID.utf8))))"
    }

    /// `userID`'s cached snapshot; `nil` when there is none or it cannot be read (a cache is only a cache).
    func load(userID: String) async -> ProfileSnapshot? {
        guard let stored = try? await store.read(storageKey(for: userID)),
            let members = (try? JSONValue(parsing: stored))?.objectValue,
            members["user_id"]?.stringValue == userID, let data = members["data"]?.objectValue,
            let app = members["app"], let schema = try? AppSchema(document: app)
        else { return nil }
        return ProfileSnapshot(userID: userID, etag: members["etag"]?.stringValue, data: data, schema: schema)
    }

    /// Stores `snapshot`, replacing the user's previous one.
    func save(_ snapshot: ProfileSnapshot) async throws(StorageError) {
        var members: [String: JSONValue] = [
            "user_id": .string(snapshot.userID), "data": .object(snapshot.data), "app": snapshot.schema.document,
        ]
        if let etag = snapshot.etag { members["etag"] = .string(etag) }
        try await store.write(Data(JSONValue.object(members).serialized()), for: storageKey(for: snapshot.userID))
    }

    /// Deletes `userID`'s snapshot.
    func delete(userID: String) async throws(StorageError) {
        try await store.delete(storageKey(for: userID))
    }
}
