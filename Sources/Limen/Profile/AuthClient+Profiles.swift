extension AuthClient: ProfileSession {
    /// The signed-in user's profile (read, written, cached) and field-encryption key.
    nonisolated var profiles: ProfileClient {
        ProfileClient(
            configuration: configuration, memory: profileMemory, cache: profileCache, keyring: keyring,
            stateStore: stateStore, events: events, session: self)
    }

    /// The signed-in user's ID (the ID token's `sub`), once the stored session is restored.
    func signedInUserID() async throws(LimenError) -> String {
        try await ensureRestored()
        guard let subject = tokens?.subject else { throw .notSignedIn }
        return subject
    }
}
