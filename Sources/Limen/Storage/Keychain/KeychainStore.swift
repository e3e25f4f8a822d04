#if canImport(Security)
    import Foundation
    import Security

    /// A ``SecureStore`` backed by the Keychain: one generic-password item per key. The default store on Apple
    /// platforms (see ``DefaultStore``).
    ///
    /// Items live under the service `limen.<namespace>` with the key as the account. They never sync through iCloud
    /// Keychain (`kSecAttrSynchronizable` is always false), and on macOS they go to the data protection keychain
    /// (`kSecUseDataProtectionKeychain`), which behaves like the iOS keychain and needs no password prompts.
    ///
    /// To share the session with the app's extensions (widgets, share extensions, …), prefer
    /// ``Configuration/appGroup(_:onSessionChange:)``, which builds this store. By hand: give an `accessGroup` from the
    /// app's entitlements — an app group as it is written (`group.com.example`, no team prefix), or a Keychain
    /// Sharing group with its team prefix (`ABCDE12345.com.example.shared`) — and a `sharedDirectory` in the app-group
    /// container that all of them share; an access group without one is refused
    /// (``ConfigurationError/incompleteSharing(missing:)``). A refresh then takes the lock file `<namespace>.lock` there
    /// around its reads and writes, so the app and its widget never both spend one rotating refresh token.
    ///
    /// iOS keeps Keychain items when an app is deleted. Unless `checksForReinstall` is `false`, the first access in a
    /// process compares an item recording the installation with the marker file `<namespace>.installation` (deleted
    /// with the app) and removes the items of the namespace left by an earlier installation, so a reinstalled app
    /// starts signed out; field-encryption keys follow ``Configuration/encryptionKeyOnSignOut``. The marker is kept in
    /// `sharedDirectory`, with one record for every process, or else in ``DefaultStore``'s directory with a record per
    /// process (so an app and an extension sharing the items by Keychain Sharing never take each other's marker for a
    /// reinstall). Accounts beginning with `.installation` are reserved.
    ///
    /// ```swift
    /// let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")
    /// let store = try KeychainStore(
    ///     namespace: "main",
    ///     accessGroup: "group.com.example",
    ///     accessibility: .afterFirstUnlockThisDeviceOnly,
    ///     sharedDirectory: container?.appending(path: "Library/Application Support/limen")
    /// )
    /// ```
    ///
    /// Failures map to ``StorageError/keychain(status:)`` carrying the `OSStatus`; reading while the device is locked
    /// (`errSecInteractionNotAllowed`) is retryable, and `AuthClient` then stays `restoring` until
    /// `AuthClient.resume()`. On macOS the data protection keychain needs a signed app with a keychain access group: the
    /// first `-34018` (`errSecMissingEntitlement`) becomes ``StorageError/missingEntitlement(_:)``, and every later
    /// call fails the same way at once (use ``EncryptedFileStore`` in an unsigned tool). Each Keychain call blocks the
    /// calling task briefly.
    public final class KeychainStore: ProcessCoordinatedStore, FieldKeyRetaining {
        /// When the items written by a ``KeychainStore`` can be read (the `kSecAttrAccessible` value).
        ///
        /// Choose the most restrictive value that still lets the app refresh tokens when it needs to: background
        /// refreshes need one of the `afterFirstUnlock` values.
        public enum Accessibility: Sendable, Equatable, CaseIterable {
            /// Readable only while the device is unlocked; included in encrypted backups
            /// (`kSecAttrAccessibleWhenUnlocked`).
            case whenUnlocked
            /// Readable only while the device is unlocked; never leaves this device
            /// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`).
            case whenUnlockedThisDeviceOnly
            /// Readable after the first unlock since boot, also in the background; included in encrypted backups
            /// (`kSecAttrAccessibleAfterFirstUnlock`).
            case afterFirstUnlock
            /// Readable after the first unlock since boot, also in the background; never leaves this device
            /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`). The default.
            case afterFirstUnlockThisDeviceOnly
            /// Readable only while the device is unlocked and only if a passcode is set; removing the passcode
            /// deletes the item (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`).
            case whenPasscodeSetThisDeviceOnly

            /// The Keychain Services constant for this value.
            var attribute: CFString {
                switch self {
                case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
                case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
                case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
                }
            }
        }

        /// The namespace that separates this store's items from other configurations' items.
        public var namespace: String { items.namespace }
        /// The keychain access group the items belong to, or `nil` for the app's default group.
        public let accessGroup: String?
        /// When the items can be read.
        public let accessibility: Accessibility
        /// The `kSecAttrService` of every item: `limen.<namespace>`.
        public var service: String { items.service }
        private let items: KeychainItemStore

        /// Creates a store for `namespace` (1–64 ASCII letters, digits, `-`, `_`).
        ///
        /// - Parameters:
        ///   - namespace: Separates this store's items from those of other configurations.
        ///   - accessGroup: A keychain access group from the app's entitlements, to share items with app extensions:
        ///     an app group as written (`group.com.example`), a Keychain Sharing group with its team prefix; `nil` uses
        ///     the app's default group. Needs `sharedDirectory`.
        ///   - accessibility: When items can be read; applied to every write.
        ///   - sharedDirectory: A directory every process sharing the items can write (in the app-group container),
        ///     for the lock file that keeps them from refreshing at once and for the reinstall check's marker; `nil`
        ///     coordinates this process only and keeps the marker in ``DefaultStore``'s directory.
        ///   - checksForReinstall: Whether the first access in a process removes the items left by an earlier
        ///     installation of the app (iOS keeps Keychain items when an app is deleted); see ``DefaultStore``.
        /// - Throws: ``LimenError/storage(_:)`` with ``StorageError/invalidNamespace(_:)`` for a namespace outside the
        ///   rules above; ``LimenError/configuration(_:)`` with ``ConfigurationError/incompleteSharing(missing:)`` for
        ///   an `accessGroup` without a `sharedDirectory`.
        public convenience init(
            namespace: String,
            accessGroup: String? = nil,
            accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
            sharedDirectory: URL? = nil,
            checksForReinstall: Bool = true
        ) throws(LimenError) {
            do {
                try StorageName.validate(namespace: namespace)
            } catch {
                throw .storage(error)
            }
            do {
                try KeychainSharing.validate(accessGroup: accessGroup, sharedDirectory: sharedDirectory)
            } catch {
                throw .configuration(error)
            }
            self.init(
                validNamespace: namespace,
                accessGroup: accessGroup,
                accessibility: accessibility,
                lockDirectory: sharedDirectory,
                markerDirectory: checksForReinstall ? sharedDirectory ?? DefaultStore.current.directory : nil,
                markerProcess: sharedDirectory == nil ? KeychainSharing.processName : nil
            )
        }

        /// Creates a store for a namespace already known to follow ``StorageName``'s rules.
        init(
            validNamespace namespace: String,
            accessGroup: String? = nil,
            accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
            lockDirectory: URL? = nil,
            markerDirectory: URL?,
            markerProcess: String?
        ) {
            self.accessGroup = accessGroup
            self.accessibility = accessibility
            self.items = KeychainItemStore(
                validNamespace: namespace,
                items: SecItemCalls(
                    service: "limen.\(namespace)", accessGroup: accessGroup, accessibility: accessibility),
                lockDirectory: lockDirectory,
                markerDirectory: markerDirectory,
                markerProcess: markerProcess
            )
        }

        /// Whether the reinstall check keeps field-encryption keys; `AuthClient` sets it from
        /// ``Configuration/encryptionKeyOnSignOut``.
        func retainFieldKeys(_ retention: EncryptionKeyRetention) {
            items.retainFieldKeys(retention)
        }

        /// Returns the data stored under `key`, or `nil` when there is none.
        public func read(_ key: String) async throws(StorageError) -> Data? {
            try await items.read(key)
        }

        /// Stores `data` under `key`, replacing any previous value (update, or add when there is none).
        public func write(_ data: Data, for key: String) async throws(StorageError) {
            try await items.write(data, for: key)
        }

        /// Removes the item for `key`; removing a missing item succeeds.
        public func delete(_ key: String) async throws(StorageError) {
            try await items.delete(key)
        }

        /// Runs `body` holding this store's lock: in this process, and with a `sharedDirectory` also in every process
        /// sharing it.
        public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            try await items.withExclusiveAccess(body)
        }
    }

    /// The Keychain Services calls on the generic-password items of one service.
    private struct SecItemCalls: KeychainItems {
        let service: String
        let accessGroup: String?
        let accessibility: KeychainStore.Accessibility

        func copyData(account: String) -> Result<Data?, KeychainStatus> {
            var query = baseQuery(account: account)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            guard status == errSecSuccess else { return .failure(KeychainStatus(rawValue: status)) }
            return .success(result as? Data)
        }

        func add(account: String, data: Data) -> KeychainStatus {
            var item = baseQuery(account: account)
            item.merge(changes(data)) { _, new in new }
            return KeychainStatus(rawValue: SecItemAdd(item as CFDictionary, nil))
        }

        func update(account: String, data: Data) -> KeychainStatus {
            KeychainStatus(
                rawValue: SecItemUpdate(baseQuery(account: account) as CFDictionary, changes(data) as CFDictionary))
        }

        func delete(account: String) -> KeychainStatus {
            KeychainStatus(rawValue: SecItemDelete(baseQuery(account: account) as CFDictionary))
        }

        func allAccounts() -> Result<[String], KeychainStatus> {
            var query = baseQuery(account: nil)
            query[kSecReturnAttributes as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitAll
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return .success([]) }
            guard status == errSecSuccess else { return .failure(KeychainStatus(rawValue: status)) }
            let items = result as? [[String: Any]] ?? []
            return .success(items.compactMap { $0[kSecAttrAccount as String] as? String })
        }

        private func changes(_ data: Data) -> [String: Any] {
            [kSecValueData as String: data, kSecAttrAccessible as String: accessibility.attribute]
        }

        /// The attributes that identify the item for `account` (every item of the service when `nil`): class,
        /// service, account, access group, no sync, and the data protection keychain (which platforms other than macOS
        /// ignore, as documented).
        private func baseQuery(account: String?) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrSynchronizable as String: false,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let account {
                query[kSecAttrAccount as String] = account
            }
            if let accessGroup {
                query[kSecAttrAccessGroup as String] = accessGroup
            }
            return query
        }
    }
#endif
