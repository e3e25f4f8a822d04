import Foundation

/// Reads and writes the ``TokenSet`` of one client in a ``SecureStore``, under the client's namespace, so that
/// several clients can share one store.
struct SessionStore: Sendable {
    let store: any SecureStore
    private let key: String
    private let previouslySignedInKey: String
    /// The key of the ``RefreshClaim``.
    let claimKey: String

    init(store: any SecureStore, namespace: String) {
        self.store = store
        self.key = "\(namespace).session"
        self.previouslySignedInKey = "\(namespace).previously_signed_in"
        self.claimKey = "\(namespace).refresh_claim"
    }

    /// Whether anyone has signed in with this client on this device (kept across sign-outs).
    func hasPreviouslySignedIn() async -> Bool {
        (try? await store.read(previouslySignedInKey)) != nil
    }

    /// Remembers that someone has signed in.
    func markSignedIn() async throws(StorageError) {
        if try await store.read(previouslySignedInKey) == nil {
            try await store.write(Data([1]), for: previouslySignedInKey)
        }
    }

    /// The stored session; a stored value that cannot be decoded is a ``StorageError/corrupted(key:)``.
    func load() async throws(StorageError) -> TokenSet? {
        guard let data = try await store.read(key) else { return nil }
        do {
            return try JSONDecoder().decode(TokenSet.self, from: data)
        } catch {
            throw .corrupted(key: key)
        }
    }

    /// Saves the whole set in one write.
    func save(_ tokens: TokenSet) async throws(StorageError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(tokens)
        } catch {
            throw .corrupted(key: key)
        }
        try await store.write(data, for: key)
        try await markSignedIn()
    }

    /// Removes the session.
    func clear() async throws(StorageError) {
        try await store.delete(key)
    }

    /// Runs `body` while holding the store's cross-process lock when it has one.
    ///
    /// `body`'s outcome is carried through the lock as a value, so whatever the lock itself throws is a failure to
    /// take it: a ``StorageError`` from Limen's stores, and from a custom store anything else, reported as an I/O
    /// failure to lock it.
    func exclusively<T: Sendable>(_ body: @escaping @Sendable () async throws(LimenError) -> T)
        async throws(LimenError) -> T
    {
        guard let coordinated = store as? any ProcessCoordinatedStore else { return try await body() }
        let outcome: Result<T, LimenError>
        do {
            outcome = try await coordinated.withExclusiveAccess { () async -> Result<T, LimenError> in
                do throws(LimenError) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .storage(.lockFailed(path: String(describing: type(of: coordinated)), errno: EIO))
        }
        return try outcome.get()
    }
}
