import Foundation

extension GrantStore {
    /// Stores a grant made without an authorization code, recording no event; `false` when its user is disabled.
    @discardableResult
    public func insertGrant(_ grant: GrantRecord) async throws(StorageError) -> Bool {
        try await insertGrant(grant, recording: [])
    }

    /// Revokes the grant as ``revokeGrant(id:at:recording:)`` does, recording no event.
    @discardableResult
    public func revokeGrant(id: String, at date: Date) async throws(StorageError) -> Bool {
        try await revokeGrant(id: id, at: date, recording: [])
    }

    /// Stores a new authorization code, recording no event.
    public func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError) {
        try await insertAuthorizationCode(code, recording: [])
    }
}

extension FlowInteractionStore {
    /// Replaces the interaction as ``updateFlowInteraction(_:recording:)`` does, recording no event.
    public func updateFlowInteraction(_ interaction: FlowInteractionRecord) async throws(StorageError) -> Bool {
        try await updateFlowInteraction(interaction, recording: [])
    }
}

extension IdentityStore {
    /// Links the address to the anonymous user as ``linkEmail(_:passwordHash:name:emailVerified:toAnonymousUser:recording:)``
    /// does, recording no event.
    public func linkEmail(
        _ email: String, passwordHash: String?, name: String?, emailVerified: Bool, toAnonymousUser userID: String
    ) async throws(StorageError) -> Bool {
        try await linkEmail(
            email, passwordHash: passwordHash, name: name, emailVerified: emailVerified, toAnonymousUser: userID,
            recording: [])
    }

    /// Unlinks as ``unlinkIdentity(kind:userID:recording:)`` does, recording no event.
    public func unlinkIdentity(kind: String, userID: String) async throws(StorageError) -> IdentityUnlinking {
        try await unlinkIdentity(kind: kind, userID: userID, recording: [])
    }
}

extension SecondFactorStore {
    /// Turns two-step sign-in on with `record`, recording no event; `false` when it is on already.
    public func insertSecondFactor(_ record: SecondFactorRecord) async throws(StorageError) -> Bool {
        try await insertSecondFactor(record, recording: [])
    }

    /// Turns user `userID`'s two-step sign-in off, recording no event; `false` when it was off.
    public func deleteSecondFactor(userID: String) async throws(StorageError) -> Bool {
        try await deleteSecondFactor(userID: userID, recording: [])
    }
}

extension PasskeyStore {
    /// Stores a new credential, recording no event; `false` when its credential ID is registered already.
    public func insertPasskeyCredential(_ record: PasskeyCredentialRecord) async throws(StorageError) -> Bool {
        try await insertPasskeyCredential(record, recording: [])
    }

    /// Removes user `userID`'s credential `id`, recording no event; `false` when they have no such credential.
    public func deletePasskeyCredential(id: Data, userID: String) async throws(StorageError) -> Bool {
        try await deletePasskeyCredential(id: id, userID: userID, recording: [])
    }
}
