import Foundation
import LimenWire

/// A user's profile data (``ProfileSchema`` fields by name), with the revision its `ETag` names.
public struct ProfileRecord: Sendable, Equatable {
    /// The user (`sub`) it belongs to.
    public var userID: String
    /// The members, as stored: encrypted fields hold the JWE compact string the device sent.
    public var data: [String: JSONValue]
    /// Raised by one on every write; a user without stored data is at revision 0.
    public var revision: Int
    /// When it was last written (the `updated_at` claim).
    public var updatedAt: Date

    /// Creates a profile record.
    public init(userID: String, data: [String: JSONValue], revision: Int, updatedAt: Date) {
        self.userID = userID
        self.data = data
        self.revision = revision
        self.updatedAt = updatedAt
    }

    /// The profile of a user who never wrote one: no data, revision 0.
    public static func empty(userID: String) -> ProfileRecord {
        ProfileRecord(userID: userID, data: [:], revision: 0, updatedAt: Date(timeIntervalSince1970: 0))
    }
}

/// The stored app schema: its `{"fields": …}` document as JSON text, and the digest of the configuration file's schema
/// last applied (so that an unchanged file does not undo an admin API change at the next start).
public struct AppSchemaRecord: Sendable, Equatable {
    /// The `{"fields": …}` document as JSON text.
    public var document: String
    /// The SHA-256 (hex) of the configuration file's schema last applied, `nil` when none ever was.
    public var fileDigest: String?
    /// When it was last replaced.
    public var updatedAt: Date

    /// Creates a schema record.
    public init(document: String, fileDigest: String?, updatedAt: Date) {
        self.document = document
        self.fileDigest = fileDigest
        self.updatedAt = updatedAt
    }
}

/// The profile part of the ``Store``: the app schema (one row) and each user's profile data, deleted with the user.
public protocol ProfileStore: Sendable {
    /// The stored app schema, `nil` before one was set.
    func appSchema() async throws(StorageError) -> AppSchemaRecord?
    /// Replaces the app schema with `record`.
    func replaceAppSchema(_ record: AppSchemaRecord) async throws(StorageError)
    /// The profile data of `userID`, `nil` when none was ever written. One read, on the read path.
    func profile(userID: String) async throws(StorageError) -> ProfileRecord?
    /// ``AccessTokenStateStore/accessTokenState(grantID:jti:)`` and the profile of the grant's user, in one read on
    /// the read path (`GET /v1/me/data`); `nil` when there is no such grant.
    func accessTokenStateAndProfile(
        grantID: String,
        jti: String
    ) async throws(StorageError) -> (state: AccessTokenState, profile: ProfileRecord?)?
    /// Stores `data` as the profile of `userID` if its stored revision is still `expectedRevision` (0: nothing stored
    /// yet), in one compare-and-set statement; returns the new revision, or `nil` when the revision moved on (or the
    /// user no longer exists).
    func writeProfile(
        userID: String,
        data: [String: JSONValue],
        expectedRevision: Int,
        now: Date
    ) async throws(StorageError) -> Int?
}
