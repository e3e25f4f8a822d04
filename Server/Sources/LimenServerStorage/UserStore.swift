import Foundation
import LimenWire

/// A person who can sign in. Two records are equal when their stored columns are: ``identityCount`` is derived.
public struct UserRecord: Sendable, Equatable {
    /// The OpenID `sub`: random and opaque, never reused or reassigned.
    public var id: String
    /// The email address, normalised (trimmed, lower-cased); unique among users; `nil` for a user without one (an
    /// anonymous user).
    public var email: String?
    /// Whether the address has been shown to belong to the user.
    public var emailVerified: Bool
    /// The display name, if given.
    public var name: String?
    /// The password in ``PasswordHasher``'s encoded form; `nil` for a user without a password (anonymous,
    /// passwordless or external identity).
    public var passwordHash: String?
    /// When the account was created.
    public var createdAt: Date
    /// How many identities the user signs in with, as the store read them (``IdentityStore``): none for an anonymous
    /// user. Derived by the store; a write ignores it.
    public var identityCount: Int
    /// The phone number (E.164) the user signs in with by SMS code, from their `phone` identity. Derived by the store; a
    /// write ignores it.
    public var phoneNumber: String?

    /// Creates a user record.
    public init(
        id: String,
        email: String?,
        emailVerified: Bool = false,
        name: String? = nil,
        passwordHash: String? = nil,
        createdAt: Date,
        identityCount: Int = 0,
        phoneNumber: String? = nil
    ) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.identityCount = identityCount
        self.phoneNumber = phoneNumber
    }

    /// Equal stored columns (``identityCount`` and ``phoneNumber`` are read from another table and a write ignores them).
    public static func == (lhs: UserRecord, rhs: UserRecord) -> Bool {
        (lhs.id, lhs.email, lhs.emailVerified, lhs.name, lhs.passwordHash, lhs.createdAt)
            == (rhs.id, rhs.email, rhs.emailVerified, rhs.name, rhs.passwordHash, rhs.createdAt)
    }

    /// Whether the user has no identity: signed in as a guest, known by nothing but their subject.
    public var isAnonymous: Bool { identityCount == 0 }

    /// The user's auth level (Rownd's guest / unverified / verified), derived from their identities: verified once an
    /// email address or a phone number was proved.
    public var authLevel: AuthLevel {
        if isAnonymous { return .guest }
        return emailVerified || phoneNumber != nil ? .verified : .unverified
    }
}

/// The users part of the ``Store``.
public protocol UserStore: Sendable {
    /// Stores `user` unless a user with its email (or ID) exists, with `events` when it was inserted (one unit: see
    /// ``SecurityEventStore``); returns whether it was inserted. Its password and email identities follow from its
    /// columns (``IdentityStore``).
    @discardableResult
    func insertUserIfAbsent(_ user: UserRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    /// The user with this subject, if any.
    func user(id: String) async throws(StorageError) -> UserRecord?
    /// The user with this normalised email, if any.
    func user(email: String) async throws(StorageError) -> UserRecord?
    /// Every user, oldest first.
    func users() async throws(StorageError) -> [UserRecord]
    /// Replaces the stored email-verified flag, name and password hash of the user with `user.id` (the email and
    /// creation time stay); returns whether there was such a user. A changed password hash also ends everything the
    /// old password let in, in the same step: the user's browser sessions, grants (so their refresh and access
    /// tokens), authorization codes and device authorizations. A first password (a user who had none), or none where
    /// there was one, ends nothing. `events` are written with the change when there was such a user (one unit).
    @discardableResult
    func updateUser(_ user: UserRecord, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
}

extension UserStore {
    /// Stores `user` unless a user with its email (or ID) exists, recording no event; returns whether it was inserted.
    @discardableResult
    public func insertUserIfAbsent(_ user: UserRecord) async throws(StorageError) -> Bool {
        try await insertUserIfAbsent(user, recording: [])
    }

    /// Replaces the user's stored columns as ``updateUser(_:recording:)`` does, recording no event.
    @discardableResult
    public func updateUser(_ user: UserRecord) async throws(StorageError) -> Bool {
        try await updateUser(user, recording: [])
    }
}
