import Foundation

/// The platform-independent part of `KeychainStore`: maps the Keychain's statuses to ``StorageError``s, replaces
/// items atomically, coordinates refreshes across the processes sharing the items through a lock file, and removes
/// the items an earlier installation of the app left behind (``ReinstallCheck``).
///
/// The Apple adapter only supplies the ``KeychainItems`` calls, so everything here is tested on Linux through a twin
/// that answers the way the Keychain does (`errSecInteractionNotAllowed` while the device is locked, …).
final class KeychainItemStore: ProcessCoordinatedStore {
    /// The namespace that separates this store's items from other configurations' items.
    let namespace: String
    private let items: any KeychainItems
    private let lock: ProcessLock
    private let reinstallCheck: ReinstallCheck?

    /// Creates a store for `namespace` over `items`.
    ///
    /// - Parameters:
    ///   - lockDirectory: Where exclusive access takes the lock file `<namespace>.lock`, shared by every process
    ///     that shares the items; `nil` coordinates this process only.
    ///   - markerDirectory: Where the ``InstallationMarker`` `<namespace>.installation` lives, for the
    ///     ``ReinstallCheck`` run before the first access; `nil` turns the check off.
    /// - Throws: ``StorageError/invalidNamespace(_:)`` unless `namespace` is 1–64 ASCII letters, digits, `-`, `_`.
    convenience init(namespace: String, items: any KeychainItems, lockDirectory: URL?, markerDirectory: URL?)
        throws(StorageError)
    {
        try StorageName.validate(namespace: namespace)
        self.init(
            validNamespace: namespace, items: items, lockDirectory: lockDirectory, markerDirectory: markerDirectory)
    }

    /// Creates a store for a namespace already known to follow ``StorageName``'s rules; `onContention` is called when
    /// an exclusive access finds the lock file held by another process (or store instance) and starts to wait.
    init(
        validNamespace namespace: String,
        items: any KeychainItems,
        lockDirectory: URL?,
        markerDirectory: URL?,
        onContention: (@Sendable () -> Void)? = nil
    ) {
        self.namespace = namespace
        self.items = items
        self.lock = ProcessLock(
            directoryPath: lockDirectory?.path(percentEncoded: false),
            fileName: "\(namespace).lock",
            onContention: onContention
        )
        self.reinstallCheck = markerDirectory.map {
            ReinstallCheck(marker: InstallationMarker(directory: $0, name: namespace))
        }
    }

    /// The `kSecAttrService` of every item: `limen.<namespace>`.
    var service: String { "limen.\(namespace)" }

    /// Returns the data stored under `key`, or `nil` when there is none.
    func read(_ key: String) async throws(StorageError) -> Data? {
        try await validate(key)
        switch items.copyData(account: key) {
        case .success(let data):
            guard let data else { throw .corrupted(key: key) }
            return data
        case .failure(.itemNotFound):
            return nil
        case .failure(let status):
            throw .keychain(status: status.rawValue)
        }
    }

    /// Stores `data` under `key`: updates the item, or adds it when there is none.
    func write(_ data: Data, for key: String) async throws(StorageError) {
        try await validate(key)
        let status = items.replace(account: key, data: data)
        guard status == .success else { throw .keychain(status: status.rawValue) }
    }

    /// Removes the item for `key`; removing a missing item succeeds.
    func delete(_ key: String) async throws(StorageError) {
        try await validate(key)
        let status = items.delete(account: key)
        guard status == .success || status == .itemNotFound else { throw .keychain(status: status.rawValue) }
    }

    /// Refuses keys outside ``StorageName``'s rules and the account the reinstall check reserves, then runs the check.
    private func validate(_ key: String) async throws(StorageError) {
        try StorageName.validate(key: key)
        guard key != ReinstallCheck.account else { throw .invalidKey(key) }
        try await reinstallCheck?.run(on: items)
    }

    /// Runs `body` holding this store's in-process lock and, with a lock directory, the lock file every process
    /// sharing the items respects.
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await lock.withLock(body)
    }
}
