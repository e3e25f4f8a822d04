import Foundation
import LimenServerStorage
import LimenWire

/// Reads and writes profiles against the app schema: every write checked (``ProfileSchema/check(_:replacing:by:)``),
/// sized, and stored by compare-and-set on the revision the `ETag` names.
package struct ProfileService: Sendable {
    /// How many times a write without `If-Match` is tried again when another write changed the profile under it.
    package static let attempts = 3

    /// Where profiles, the schema and their users are kept.
    package let store: any ProfileStore & UserStore
    /// The compiled schema.
    package let schemas: AppSchemaCache
    /// Where writes of one profile wait for each other.
    package let writes: ProfileWriteQueue
    /// The clock.
    package let now: @Sendable () -> Date

    /// A service over `store`, with `schemas` compiled and `writes` queued one at a time per user.
    package init(
        store: any ProfileStore & UserStore, schemas: AppSchemaCache, writes: ProfileWriteQueue,
        now: @escaping @Sendable () -> Date
    ) {
        (self.store, self.schemas, self.writes, self.now) = (store, schemas, writes, now)
    }

    /// The app schema.
    package func schema() async throws(ProfileError) -> ProfileSchema {
        try await storage { () throws(StorageError) in try await schemas.schema(in: store) }
    }

    /// Replaces the app schema with `schema`, as the admin API does, and forgets the compiled one on this node.
    package func replaceSchema(with schema: ProfileSchema) async throws(StorageError) {
        try await schema.applyAsAdministered(to: store, now: now())
        schemas.forget()
    }

    /// `id` when it names a user; ``ProfileError/notFound`` otherwise.
    package func existingUser(_ id: String) async throws(ProfileError) -> String {
        guard let user = try await storage({ () throws(StorageError) in try await store.user(id: id) }) else {
            throw .notFound
        }
        return user.id
    }

    /// The profile of `userID`: empty at revision 0 when nothing was written. One read.
    package func profile(userID: String) async throws(ProfileError) -> ProfileRecord {
        try await storage { () throws(StorageError) in try await store.profile(userID: userID) }
            ?? ProfileRecord.empty(userID: userID)
    }

    /// Writes what `change` makes of the current data (under the app schema), as `writer`, if `ifMatch` (an `If-Match`
    /// header) names the current revision or is absent. Without `If-Match`, a write that another one overtook is made
    /// again on the new data (up to ``attempts`` times: on this node writes of one profile take turns, so only a
    /// write through another node can overtake it); with it, that is `412`.
    package func write(
        userID: String,
        by writer: ProfileWriter,
        ifMatch: String?,
        change: (_ current: [String: JSONValue], ProfileSchema) throws(ProfileError) -> [String: JSONValue]
    ) async throws(ProfileError) -> ProfileRecord {
        let schema = try await schema()
        return try await writes.serialized(userID: userID) { () async throws(ProfileError) -> ProfileRecord in
            try await write(userID: userID, by: writer, ifMatch: ifMatch, schema: schema, change: change)
        }
    }

    /// One turn of ``write(userID:by:ifMatch:change:)``.
    private func write(
        userID: String,
        by writer: ProfileWriter,
        ifMatch: String?,
        schema: ProfileSchema,
        change: (_ current: [String: JSONValue], ProfileSchema) throws(ProfileError) -> [String: JSONValue]
    ) async throws(ProfileError) -> ProfileRecord {
        for _ in 0..<Self.attempts {
            let current = try await profile(userID: userID)
            if let ifMatch, !ProfileETag.matches(ifMatch, revision: current.revision) { throw .preconditionFailed }
            let data = try change(current.data, schema)
            try schema.check(data, replacing: current.data, by: writer)
            guard JSONValue.object(data).serialized().count <= ProfileLimits.maximumDocumentSize else {
                throw .tooLarge("the profile")
            }
            let now = self.now()
            let written = try await storage { () throws(StorageError) in
                try await store.writeProfile(userID: userID, data: data, expectedRevision: current.revision, now: now)
            }
            if let revision = written {
                return ProfileRecord(userID: userID, data: data, revision: revision, updatedAt: now)
            }
            if ifMatch != nil { throw .preconditionFailed }
        }
        throw .conflict
    }

    /// Runs a store call, a failure of which is the server's.
    private func storage<Value>(_ call: () async throws(StorageError) -> Value) async throws(ProfileError) -> Value {
        do {
            return try await call()
        } catch {
            throw .serverError
        }
    }
}
