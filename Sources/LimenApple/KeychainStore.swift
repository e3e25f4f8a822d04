#if canImport(Security)
    import Foundation
    import Limen
    import Security

    /// A ``SecureStore`` backed by the Keychain: one generic-password item per key.
    ///
    /// Items live under the service `limen.<namespace>` with the key as the account. They never sync through iCloud
    /// Keychain (`kSecAttrSynchronizable` is always false), and on macOS they go to the data protection keychain
    /// (`kSecUseDataProtectionKeychain`), which behaves like the iOS keychain and needs no password prompts.
    ///
    /// Give an `accessGroup` listed in the app's Keychain Sharing (or App Groups) entitlement to share the session
    /// with the app's extensions (widgets, share extensions, …); the group is the full identifier, including the team
    /// prefix.
    ///
    /// ```swift
    /// let store = try KeychainStore(
    ///     namespace: "main",
    ///     accessGroup: "ABCDE12345.com.example.shared",
    ///     accessibility: .afterFirstUnlockThisDeviceOnly
    /// )
    /// let configuration = Configuration(
    ///     issuer: URL(string: "https://id.example.com")!,
    ///     clientID: "ios-app",
    ///     redirectURI: URL(string: "com.example.app:/callback")!,
    ///     store: store
    /// )
    /// ```
    ///
    /// Failures map to ``StorageError/keychain(status:)`` carrying the `OSStatus`; reading while the device is locked
    /// (`errSecInteractionNotAllowed`) is retryable. On macOS the data protection keychain needs a signed app with a
    /// keychain access group (an unsigned command-line tool gets `-34018`, `errSecMissingEntitlement`; use
    /// `EncryptedFileStore` there). Each Keychain call blocks the calling task briefly.
    public final class KeychainStore: SecureStore {
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
        public let namespace: String
        /// The keychain access group the items belong to, or `nil` for the app's default group.
        public let accessGroup: String?
        /// When the items can be read.
        public let accessibility: Accessibility
        /// The `kSecAttrService` of every item: `limen.<namespace>`.
        public var service: String { "limen.\(namespace)" }

        /// Creates a store for `namespace` (1–64 ASCII letters, digits, `-`, `_`).
        ///
        /// - Parameters:
        ///   - namespace: Separates this store's items from those of other configurations.
        ///   - accessGroup: A keychain access group from the app's entitlements, to share items with app extensions;
        ///     `nil` uses the app's default group.
        ///   - accessibility: When items can be read; applied to every write.
        /// - Throws: ``StorageError/invalidNamespace(_:)`` for a namespace outside the rules above.
        public init(
            namespace: String,
            accessGroup: String? = nil,
            accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly
        ) throws(StorageError) {
            try StorageName.validate(namespace: namespace)
            self.namespace = namespace
            self.accessGroup = accessGroup
            self.accessibility = accessibility
        }

        /// Returns the data stored under `key`, or `nil` when there is none.
        public func read(_ key: String) async throws(StorageError) -> Data? {
            try StorageName.validate(key: key)
            var query = baseQuery(for: key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess:
                guard let data = result as? Data else { throw .corrupted(key: key) }
                return data
            case errSecItemNotFound:
                return nil
            default:
                throw .keychain(status: status)
            }
        }

        /// Stores `data` under `key`, replacing any previous value (update, or add when there is none).
        public func write(_ data: Data, for key: String) async throws(StorageError) {
            try StorageName.validate(key: key)
            let query = baseQuery(for: key)
            let changes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: accessibility.attribute,
            ]
            var status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
            if status == errSecItemNotFound {
                var item = query
                item.merge(changes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    // Another process (an app extension sharing the access group) added it in between.
                    status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
                }
            }
            guard status == errSecSuccess else { throw .keychain(status: status) }
        }

        /// Removes the item for `key`; removing a missing item succeeds.
        public func delete(_ key: String) async throws(StorageError) {
            try StorageName.validate(key: key)
            let status = SecItemDelete(baseQuery(for: key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw .keychain(status: status)
            }
        }

        /// The attributes that identify the item for `key`: class, service, account, access group, no sync, and the
        /// data protection keychain (which platforms other than macOS ignore, as documented).
        private func baseQuery(for key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
                kSecAttrSynchronizable as String: false,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup {
                query[kSecAttrAccessGroup as String] = accessGroup
            }
            return query
        }
    }
#endif
