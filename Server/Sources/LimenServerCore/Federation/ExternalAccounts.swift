import Foundation
import LimenServerStorage
import LimenWire

/// The Limen user an external identity signs in as (RFC 8693 token exchange, upstream providers of the hosted pages).
///
/// - An identity already linked (kind `oidc:<issuer>`, subject the token's `sub`) signs in as its user.
/// - Otherwise, with the issuer's `link_by_verified_email` and an address the issuer verified that is a Limen user's
///   verified address, the identity is linked to that user.
/// - Otherwise, when a guest is upgrading (`guest`: an anonymous user signed in in the browser), the identity is linked
///   to the guest (``AccountLinking``'s case 1: same user, data kept); the caller replaces the guest when the identity
///   led to another account (case 2).
/// - Otherwise a new user is made: first without an address, then the identity is linked to them — of two requests for
///   one new identity exactly one links it, and the other deletes the user it made and signs in as the winner's. Only
///   then does the user take the token's address, when the issuer verified it and no other user has it. An address the
///   issuer did not verify is never stored nor used to link.
///
/// No step needs a transaction: should the server stop between making the user and linking the identity, what is left
/// is an anonymous user without grants, which the expiry sweeper deletes like any stale guest. Each link is recorded as
/// `identity.linked` in the statement that makes it, and a new user as `user.created` with their first link (a user
/// whose link lost the race is deleted unrecorded), both from the request's origin.
package struct ExternalAccounts: Sendable {
    /// Where users and identities are kept.
    package let store: any UserStore & IdentityStore
    /// Where links and new users are recorded.
    package let events: SecurityEventRecorder
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any UserStore & IdentityStore, events: SecurityEventRecorder, now: @escaping @Sendable () -> Date
    ) {
        (self.store, self.events, self.now) = (store, events, now)
    }

    /// The user `identity` signs in as, linked or made as described above; `guest` is the anonymous user upgrading,
    /// if any; changes are recorded from `origin`.
    package func user(for identity: ExternalIdentity, guest: String? = nil, origin: RequestOrigin)
        async throws(StorageError) -> UserRecord
    {
        guard let guest else { return try await signIn(identity, origin: origin).user }
        if let user = try await existingUser(for: identity, origin: origin) { return user }
        let user = try await link(identity, to: guest, origin: origin)
        guard user.id == guest else { return user }
        return try await adoptEmail(of: identity, by: user)
    }

    /// ``user(for:guest:)`` when new accounts may be made (`signUp`, the `sign_up` setting), else
    /// ``existingUser(for:)``: `nil` when the identity leads to nobody and sign-up is off.
    package func user(for identity: ExternalIdentity, signUp: Bool, origin: RequestOrigin)
        async throws(StorageError) -> UserRecord?
    {
        if signUp { return try await user(for: identity, origin: origin) }
        return try await existingUser(for: identity, origin: origin)
    }

    /// The user `identity` leads to without making an account: its ``holder(of:)``, the identity linked to them when it
    /// was not yet; `nil` when it leads to nobody (with sign-up turned off, such an identity cannot sign in).
    package func existingUser(for identity: ExternalIdentity, origin: RequestOrigin) async throws(StorageError)
        -> UserRecord?
    {
        guard let holder = try await holder(of: identity) else { return nil }
        return holder.linked ? holder.user : try await link(identity, to: holder.user.id, origin: origin)
    }

    /// The user `identity` signs in as, linked or made as described above, and whether it was made for it.
    package func signIn(_ identity: ExternalIdentity, origin: RequestOrigin) async throws(StorageError)
        -> (user: UserRecord, created: Bool)
    {
        if let user = try await existingUser(for: identity, origin: origin) { return (user, false) }
        let created = UserRecord(
            id: RandomToken.make(byteCount: 16), email: nil, name: identity.name, createdAt: now())
        try await store.insertUserIfAbsent(created)
        let user = try await link(identity, to: created.id, origin: origin, creating: true)
        guard user.id == created.id else {
            try await store.deleteUnusedUser(id: created.id)
            return (user, false)
        }
        return (try await adoptEmail(of: identity, by: user), true)
    }

    /// The user who holds `identity` as things stand, changing nothing: the user it is linked to (`linked`), or with
    /// the issuer's `link_by_verified_email` the user whose verified address the issuer verified (not linked yet);
    /// `nil` when signing in would make a new user.
    package func holder(of identity: ExternalIdentity) async throws(StorageError) -> (user: UserRecord, linked: Bool)? {
        if let user = try await store.user(identityKind: identity.identityKind, subject: identity.subject) {
            return (user, true)
        }
        guard identity.linkByVerifiedEmail, identity.emailVerified, let email = identity.email,
            let owner = try await store.user(email: email), owner.emailVerified
        else { return nil }
        return (owner, false)
    }

    /// `user` once they took the address of `identity`, when the issuer verified it, they have none and no other user
    /// has it; `user` unchanged otherwise.
    package func adoptEmail(of identity: ExternalIdentity, by user: UserRecord) async throws(StorageError) -> UserRecord
    {
        guard user.email == nil, identity.emailVerified, let email = identity.email,
            try await store.adoptVerifiedEmail(email, userID: user.id)
        else { return user }
        return try await store.user(id: user.id) ?? user
    }

    /// Links `identity` to `userID` unless it is linked already, recorded from `origin` (with `user.created` first when
    /// `creating` the user for it); the user it is linked to, either way (another user's when a request linked it to
    /// them first).
    package func link(_ identity: ExternalIdentity, to userID: String, origin: RequestOrigin, creating: Bool = false)
        async throws(StorageError) -> UserRecord
    {
        let record = IdentityRecord(
            kind: identity.identityKind, subject: identity.subject, userID: userID, createdAt: now())
        let linked = SecurityEvent(.identityLinked, user: userID, details: .identity(record.kind))
        let created = SecurityEvent(.userCreated, user: userID, details: .identity(record.kind))
        _ = try await store.insertIdentityIfAbsent(
            record, recording: events.records(creating ? [created, linked] : [linked], from: origin))
        guard let user = try await store.user(identityKind: record.kind, subject: record.subject) else {
            // Linked, then unlinked or deleted at once by someone else: nothing to sign in as.
            throw .queryFailed("the identity \(record.kind) was removed while it was linked")
        }
        return user
    }
}
