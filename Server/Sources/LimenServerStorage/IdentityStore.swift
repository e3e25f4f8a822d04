import Foundation

/// A credential a user signs in with. One credential belongs to one user only: the store keys identities by
/// (``kind``, ``subject``).
public struct IdentityRecord: Sendable, Equatable {
    /// A password sign-in; the subject is the normalised email address.
    public static let passwordKind = "password"
    /// One-time codes sent by email; the subject is the normalised email address.
    public static let emailKind = "email"
    /// One-time codes sent by SMS; the subject is the phone number in E.164 form (`+15551234567`).
    public static let phoneKind = "phone"

    /// What kind of credential: ``passwordKind``, ``emailKind``, ``phoneKind``, or an external issuer's kind.
    public var kind: String
    /// Who the credential names within its kind.
    public var subject: String
    /// The user it belongs to.
    public var userID: String
    /// When it was linked.
    public var createdAt: Date

    /// Creates an identity record.
    public init(kind: String, subject: String, userID: String, createdAt: Date) {
        (self.kind, self.subject, self.userID, self.createdAt) = (kind, subject, userID, createdAt)
    }

    /// The kinds that go when `kind` is unlinked: the address takes the password that signs in with it.
    public static func kinds(goingWith kind: String) -> [String] {
        kind == emailKind ? [emailKind, passwordKind] : [kind]
    }
}

/// The identities part of the ``Store``. The `password` and `email` identities follow the user's columns (an
/// address, a password hash) in the same statement as the column changes, so they are never out of step; an anonymous
/// user has none.
public protocol IdentityStore: Sendable {
    /// The user's identities, oldest first.
    func identities(userID: String) async throws(StorageError) -> [IdentityRecord]
    /// Gives the anonymous user `userID` its first identity: the address, a password hash when there is one, and
    /// whether the address is proved (and a display name, when one is given). In one statement it succeeds only while the user still has no address and the
    /// address is free, so of two upgrades racing for one anonymous user exactly one wins. Returns whether it did;
    /// `events` are written with the link, in one unit.
    func linkEmail(
        _ email: String,
        passwordHash: String?,
        name: String?,
        emailVerified: Bool,
        toAnonymousUser userID: String,
        recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> Bool
    /// Removes the user's identities of `kind`, in one statement and only if another identity remains: `password`
    /// removes the password, `email` the address (and the password that signs in with it), another kind its rows.
    /// `events` are written with the change, in one unit, when it is made (``IdentityUnlinking/unlinked``).
    func unlinkIdentity(kind: String, userID: String, recording events: [SecurityEventRecord])
        async throws(StorageError) -> IdentityUnlinking
    /// The user who signs in with the identity (`kind`, `subject`), if it is linked.
    func user(identityKind kind: String, subject: String) async throws(StorageError) -> UserRecord?
    /// Links `identity` to its user unless (`kind`, `subject`) is linked already (to anyone), with `events` when it
    /// did; returns whether it did. Of two requests linking one identity at once, exactly one succeeds.
    func insertIdentityIfAbsent(_ identity: IdentityRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Deletes the user `id` if they have no identity and no grant: a user created for an identity that another
    /// request linked first. Returns whether it did.
    @discardableResult
    func deleteUnusedUser(id: String) async throws(StorageError) -> Bool
    /// Gives the user `userID`, who has no address, the verified address `email` unless another user has it; returns
    /// whether it did. The `email` identity follows, as for every address.
    func adoptVerifiedEmail(_ email: String, userID: String) async throws(StorageError) -> Bool
    /// Deletes the anonymous users (no identity) created before `date` that have not refreshed a token since `date`,
    /// with everything they own; returns how many.
    @discardableResult
    func deleteAnonymousUsers(inactiveSince date: Date) async throws(StorageError) -> Int
}

/// What an unlinking did.
public enum IdentityUnlinking: Sendable, Equatable {
    /// The identity is gone.
    case unlinked
    /// The user has no identity of that kind.
    case notLinked
    /// It is the user's last identity (with the ones that depend on it), which is never removed: a user with an
    /// identity keeps at least one.
    case lastIdentity
}

extension IdentityStore {
    /// Links `identity` as ``insertIdentityIfAbsent(_:recording:)`` does, recording no event.
    public func insertIdentityIfAbsent(_ identity: IdentityRecord) async throws(StorageError) -> Bool {
        try await insertIdentityIfAbsent(identity, recording: [])
    }
}
