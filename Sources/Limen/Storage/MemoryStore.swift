import Foundation

/// A ``SecureStore`` that keeps entries in memory only: for tests and for sessions that must not outlive
/// the process.
///
/// ```swift
/// let store = MemoryStore()
/// try await store.write(Data("token".utf8), for: "tokens")
/// ```
public actor MemoryStore: ProcessCoordinatedStore {
    private var entries: [String: Data]
    private let exclusive = AsyncMutex()

    /// Creates a store holding `entries` (empty by default); the keys of `entries` are not validated.
    public init(entries: [String: Data] = [:]) {
        self.entries = entries
    }

    /// Returns the data stored under `key`, or `nil` when there is none.
    public func read(_ key: String) throws(StorageError) -> Data? {
        try StorageName.validate(key: key)
        return entries[key]
    }

    /// Stores `data` under `key`, replacing any previous value.
    public func write(_ data: Data, for key: String) throws(StorageError) {
        try StorageName.validate(key: key)
        entries[key] = data
    }

    /// Removes the entry for `key`; removing a missing entry succeeds.
    public func delete(_ key: String) throws(StorageError) {
        try StorageName.validate(key: key)
        entries[key] = nil
    }

    /// Runs `body` exclusively among callers of this instance (there is no other process to coordinate with).
    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws
        -> T
    {
        try await exclusive.withLock(body)
    }
}
