import LimenServerStorage

/// Unlinks an identity from its user (`DELETE /v1/me/identities/{kind}`), never the last that can still sign in as
/// the server is configured now, and tells the owner by email what went.
package struct IdentityUnlinker: Sendable {
    /// What an unlinking did.
    package enum Outcome: Sendable, Equatable {
        /// These identities went: the one asked for, with those that depend on it (an email with its password).
        case unlinked(removed: [String])
        /// The user has no identity of that kind.
        case notLinked
        /// What would remain cannot sign in, so nothing went.
        case lastIdentity
    }

    /// Where the identities are kept.
    package let store: any IdentityStore
    /// Tells the owner what went.
    package let notifier: AccountNotifier
    /// Whether an identity of a kind can sign in with the configuration as it stands
    /// (``ServerConfiguration/signsIn(withIdentityKind:)``).
    package let signsIn: @Sendable (String) -> Bool
    /// Stamps the `identity.unlinked` events.
    package let events: SecurityEventRecorder

    /// Makes it of its parts.
    package init(
        store: any IdentityStore, notifier: AccountNotifier, signsIn: @escaping @Sendable (String) -> Bool,
        events: SecurityEventRecorder
    ) {
        self.store = store
        self.notifier = notifier
        self.signsIn = signsIn
        self.events = events
    }

    /// Unlinks `user`'s identity of `kind`, with the identities that go with it; recorded as `identity.unlinked` from
    /// `origin`, in the same unit.
    package func unlink(kind: String, from user: UserRecord, origin: RequestOrigin) async throws(StorageError)
        -> Outcome
    {
        let before = Set(try await store.identities(userID: user.id).map(\.kind))
        let going = IdentityRecord.kinds(goingWith: kind)
        if before.contains(kind), !before.subtracting(going).contains(where: signsIn) {
            return .lastIdentity
        }
        let unlinked = SecurityEvent(.identityUnlinked, user: user.id, details: .identity(kind))
        switch try await store.unlinkIdentity(
            kind: kind, userID: user.id, recording: events.records([unlinked], from: origin))
        {
        case .unlinked:
            let removed = going.filter(before.contains)
            try await notifier.notify(.identityUnlinked(notifier.identityNames(removed)), to: user)
            return .unlinked(removed: removed)
        case .notLinked: return .notLinked
        case .lastIdentity: return .lastIdentity
        }
    }
}
