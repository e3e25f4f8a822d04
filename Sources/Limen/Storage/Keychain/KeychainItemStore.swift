import Foundation

/// The platform-independent part of `KeychainStore`: maps the Keychain's statuses to ``StorageError``s, replaces
/// items atomically, coordinates refreshes across the processes sharing the items through a lock file, and removes
/// the items an earlier installation of the app left behind (``ReinstallCheck``).
///
/// The Apple adapter only supplies the ``KeychainItems`` calls, so everything here is tested on Linux through a twin
/// that answers the way the Keychain does (`errSecInteractionNotAllowed` while the device is locked, …).
final class KeychainItemStore: ProcessCoordinatedStore, FieldKeyRetaining {
    /// The namespace that separates this store's items from other configurations' items.
    let namespace: String
    private let items: any KeychainItems
    private let lock: ProcessLock
    private let reinstallCheck: ReinstallCheck?
    private let fieldKeys = LockedValue(EncryptionKeyRetention.keep)
    /// Set by the first `errSecMissingEntitlement`: every later call is refused without asking the Keychain.
    private let lacksEntitlement = LockedValue(false)

    /// Creates a store for `namespace` over `items`.
    ///
    /// - Parameters:
    ///   - lockDirectory: Where exclusive access takes the lock file `<namespace>.lock`, shared by every process
    ///     that shares the items; `nil` coordinates this process only.
    ///   - markerDirectory: Where the ``InstallationMarker`` `<namespace>.installation` lives, for the
    ///     ``ReinstallCheck`` run before the first access; `nil` turns the check off.
    ///   - markerProcess: The process the marker belongs to (its bundle identifier) when it is in its own container;
    ///     `nil` when every process sharing the items shares the marker (it is in `lockDirectory`).
    /// - Throws: ``StorageError/invalidNamespace(_:)`` unless `namespace` is 1–64 ASCII letters, digits, `-`, `_`.
    convenience init(
        namespace: String, items: any KeychainItems, lockDirectory: URL?, markerDirectory: URL?,
        markerProcess: String? = nil
    ) throws(StorageError) {
        try StorageName.validate(namespace: namespace)
        self.init(
            validNamespace: namespace, items: items, lockDirectory: lockDirectory, markerDirectory: markerDirectory,
            markerProcess: markerProcess)
    }

    /// Creates a store for a namespace already known to follow ``StorageName``'s rules; `onContention` is called when
    /// an exclusive access finds the lock file held by another process (or store instance) and starts to wait.
    init(
        validNamespace namespace: String,
        items: any KeychainItems,
        lockDirectory: URL?,
        markerDirectory: URL?,
        markerProcess: String?,
        onContention: (@Sendable () -> Void)? = nil
    ) {
        self.namespace = namespace
        self.items = items
        self.lock = ProcessLock(
            directoryPath: lockDirectory?.path(percentEncoded: false),
            fileName: "\(namespace).lock",
            onContention: onContention
        )
        self.reinstallCheck = markerDirectory.map { [fieldKeys] in
            ReinstallCheck(
                marker: InstallationMarker(directory: $0, name: namespace), process: markerProcess,
                fieldKeys: fieldKeys)
        }
    }

    /// The `kSecAttrService` of every item: `limen.<namespace>`.
    var service: String { "limen.\(namespace)" }

    /// Whether the reinstall check keeps field-encryption keys (the client's ``Configuration/encryptionKeyOnSignOut``).
    func retainFieldKeys(_ retention: EncryptionKeyRetention) {
        fieldKeys.withLock { $0 = retention }
    }

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
            throw noticing(status)
        }
    }

    /// Stores `data` under `key`: updates the item, or adds it when there is none.
    func write(_ data: Data, for key: String) async throws(StorageError) {
        try await validate(key)
        let status = items.replace(account: key, data: data)
        guard status == .success else { throw noticing(status) }
    }

    /// Removes the item for `key`; removing a missing item succeeds.
    func delete(_ key: String) async throws(StorageError) {
        try await validate(key)
        let status = items.delete(account: key)
        guard status == .success || status == .itemNotFound else { throw noticing(status) }
    }

    /// Refuses keys outside ``StorageName``'s rules and the accounts the reinstall check reserves, refuses everything
    /// once the Keychain said the entitlement is missing, then runs the check.
    private func validate(_ key: String) async throws(StorageError) {
        try StorageName.validate(key: key)
        guard !key.hasPrefix(ReinstallCheck.accountPrefix) else { throw .invalidKey(key) }
        if lacksEntitlement.withLock({ $0 }) { throw KeychainStatus.missingEntitlement.storageError }
        do {
            try await reinstallCheck?.run(on: items)
        } catch {
            throw noticing(error)
        }
    }

    /// The error for `status`, remembering a missing entitlement.
    private func noticing(_ status: KeychainStatus) -> StorageError {
        noticing(status.storageError)
    }

    /// `error`, remembering a missing entitlement.
    private func noticing(_ error: StorageError) -> StorageError {
        if case .missingEntitlement = error { lacksEntitlement.withLock { $0 = true } }
        return error
    }

    /// Runs `body` holding this store's in-process lock and, with a lock directory, the lock file every process
    /// sharing the items respects.
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await lock.withLock(body)
    }
}

/// A store that removes what an earlier installation left behind, told by the client whether field-encryption keys
/// survive that as they survive a sign-out (``Configuration/encryptionKeyOnSignOut``).
protocol FieldKeyRetaining: AnyObject {
    /// Sets what the reinstall check does with field-encryption keys.
    func retainFieldKeys(_ retention: EncryptionKeyRetention)
}
