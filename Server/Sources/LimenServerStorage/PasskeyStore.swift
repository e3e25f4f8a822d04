import Foundation

/// A passkey (a WebAuthn public-key credential) registered to a user: what is needed to check its assertions, and what
/// the account page shows of it.
public struct PasskeyCredentialRecord: Sendable, Equatable {
    /// The credential ID the authenticator chose (at most 1,023 bytes); unique among all users.
    public var credentialID: Data
    /// The user it signs in.
    public var userID: String
    /// That user's WebAuthn user handle, which a discoverable credential returns with its assertions.
    public var userHandle: Data
    /// The credential's public key as the authenticator gave it (a COSE key).
    public var publicKey: Data
    /// The signature counter of its latest assertion (0 for authenticators that keep none, as synced passkeys).
    public var signCount: UInt32
    /// Whether the authenticator may back it up (WebAuthn's BE flag): a synced passkey.
    public var isBackupEligible: Bool
    /// Whether it was backed up at its latest use (the BS flag).
    public var isBackedUp: Bool
    /// What the person called it.
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in; `nil` before its first use.
    public var lastUsedAt: Date?

    /// Makes it of its parts.
    public init(
        credentialID: Data, userID: String, userHandle: Data, publicKey: Data, signCount: UInt32,
        isBackupEligible: Bool,
        isBackedUp: Bool, name: String, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        (self.credentialID, self.userID, self.userHandle) = (credentialID, userID, userHandle)
        (self.publicKey, self.signCount) = (publicKey, signCount)
        (self.isBackupEligible, self.isBackedUp, self.name) = (isBackupEligible, isBackedUp, name)
        (self.createdAt, self.lastUsedAt) = (createdAt, lastUsedAt)
    }
}

/// The passkeys part of the ``Store``: each user's credentials and their WebAuthn user handle, gone with the user.
public protocol PasskeyStore: Sendable {
    /// Stores a new credential; `false` (and nothing changes) when its credential ID is registered already, to
    /// anyone. `events` are written with it, in one unit, when it is stored.
    func insertPasskeyCredential(_ record: PasskeyCredentialRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// The credential `id`, if registered.
    func passkeyCredential(id: Data) async throws(StorageError) -> PasskeyCredentialRecord?
    /// The credentials of user `userID`, oldest first.
    func passkeyCredentials(userID: String) async throws(StorageError) -> [PasskeyCredentialRecord]
    /// Records a use of credential `id` in one atomic step: its counter becomes `signCount` and its backup state
    /// `isBackedUp`, at `date`, only if its counter is still `previousSignCount` (so of two assertions checked against
    /// the same counter, one counts); returns whether it did.
    func recordPasskeyUse(
        id: Data, previousSignCount: UInt32, signCount: UInt32, isBackedUp: Bool, at date: Date
    ) async throws(StorageError) -> Bool
    /// Renames user `userID`'s credential `id` and answers it as renamed; `nil` when they have no such credential.
    func renamePasskeyCredential(id: Data, userID: String, name: String) async throws(StorageError)
        -> PasskeyCredentialRecord?
    /// Removes user `userID`'s credential `id`, writing `events` with it in one unit; `false` when they have no such
    /// credential.
    func deletePasskeyCredential(id: Data, userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// User `userID`'s WebAuthn user handle: the one stored, or else `candidate`, stored now (an opaque random value,
    /// never the email, so a passkey tells nobody who its user is).
    func passkeyUserHandle(userID: String, candidate: Data) async throws(StorageError) -> Data
}

/// Version 24: passkeys (``PasskeyStore``) and each user's WebAuthn user handle, gone with the user.
enum PasskeyMigration {
    /// The migration.
    static let migration = SchemaMigration(
        version: 24,
        name: "passkeys",
        changes: [
            .createTable(
                TableDefinition(
                    name: "passkey_credentials",
                    columns: [
                        ColumnDefinition(name: "credential_id", kind: .bytes),
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "user_handle", kind: .bytes),
                        ColumnDefinition(name: "public_key", kind: .bytes),
                        ColumnDefinition(name: "sign_count", kind: .integer),
                        ColumnDefinition(name: "backup_eligible", kind: .boolean),
                        ColumnDefinition(name: "backed_up", kind: .boolean),
                        ColumnDefinition(name: "name", kind: .text),
                        ColumnDefinition(name: "created_at", kind: .time),
                        ColumnDefinition(name: "last_used_at", kind: .time, isNullable: true),
                    ],
                    primaryKey: ["credential_id"]
                )),
            .createIndex(name: "passkey_credentials_user_id", table: "passkey_credentials", columns: ["user_id"]),
            .createTable(
                TableDefinition(
                    name: "passkey_user_handles",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "handle", kind: .bytes),
                    ],
                    primaryKey: ["user_id"],
                    unique: [["handle"]]
                )),
        ]
    )
}
