import Foundation

/// Reads and writes the ``TokenSet`` of one client in a ``SecureStore``.
struct SessionStore: Sendable {
    let store: any SecureStore
    private let key = "session"

    init(store: any SecureStore) {
        self.store = store
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
    }

    /// Removes the session.
    func clear() async throws(StorageError) {
        try await store.delete(key)
    }

    /// Runs `body` while holding the store's cross-process lock when it has one.
    func exclusively<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if let coordinated = store as? any ProcessCoordinatedStore {
            return try await coordinated.withExclusiveAccess(body)
        }
        return try await body()
    }
}
