import Foundation

/// A small key/value store for secrets such as token sets and encryption keys.
///
/// Keys are plain identifiers: 1–128 ASCII letters, digits, `.`, `-` and `_`; anything else is refused with
/// ``StorageError/invalidKey(_:)``. The namespace that separates one `AuthClient` configuration from
/// another is part of each store's configuration, so several stores can share one directory or keychain.
///
/// ```swift
/// let store = try EncryptedFileStore(directory: supportDirectory, namespace: "com.example.app-main")
/// try await store.write(tokenData, for: "tokens")
/// let restored = try await store.read("tokens")
/// ```
public protocol SecureStore: Sendable {
    /// Returns the data stored under `key`, or `nil` when there is none.
    func read(_ key: String) async throws(StorageError) -> Data?
    /// Stores `data` under `key`, replacing any previous value in one atomic step.
    func write(_ data: Data, for key: String) async throws(StorageError)
    /// Removes the entry for `key`; removing a missing entry succeeds.
    func delete(_ key: String) async throws(StorageError)
}

/// A ``SecureStore`` whose read-modify-write sequences can be made exclusive across tasks and processes
/// sharing the same storage (for example an app and its extension refreshing the same session).
public protocol ProcessCoordinatedStore: SecureStore {
    /// Runs `body` while holding this store's exclusive lock, and releases it when `body` returns or throws.
    /// A failure to take the lock is thrown as a ``StorageError`` (`AuthClient` reports it as one).
    ///
    /// Reads and writes made inside `body` need no further locking; they are individually atomic in any case.
    /// Not reentrant: calling `withExclusiveAccess` again from inside `body` on the same store waits forever.
    ///
    /// ```swift
    /// let tokens = try await store.withExclusiveAccess {
    ///     let current = try await store.read("tokens")
    ///     let refreshed = try await refresh(current)
    ///     try await store.write(refreshed, for: "tokens")
    ///     return refreshed
    /// }
    /// ```
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}
