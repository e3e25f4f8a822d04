import Foundation

/// The Keychain Services calls a `KeychainStore` makes on its generic-password items, each answering with the
/// `OSStatus` the real call returns: `SecItemCopyMatching`, `SecItemAdd`, `SecItemUpdate` and `SecItemDelete` on
/// Apple platforms, a twin that fails the same way in tests.
protocol KeychainItems: Sendable {
    /// The data of the item for `account`, or the status that kept it (`errSecItemNotFound` when there is none).
    func copyData(account: String) -> Result<Data?, KeychainStatus>
    /// Adds an item for `account` holding `data`.
    func add(account: String, data: Data) -> KeychainStatus
    /// Replaces the data of the existing item for `account`.
    func update(account: String, data: Data) -> KeychainStatus
    /// Deletes the item for `account`.
    func delete(account: String) -> KeychainStatus
    /// The accounts of every item of the service (none: an empty list, not `errSecItemNotFound`).
    func allAccounts() -> Result<[String], KeychainStatus>
}

extension KeychainItems {
    /// Stores `data` for `account`: updates the item, or adds it when there is none.
    func replace(account: String, data: Data) -> KeychainStatus {
        let status = update(account: account, data: data)
        guard status == .itemNotFound else { return status }
        let added = add(account: account, data: data)
        // Another process (an app extension sharing the access group) may have added it in between.
        return added == .duplicateItem ? update(account: account, data: data) : added
    }
}

/// An `OSStatus` answered by Keychain Services, with the values Limen acts on spelled out so that the logic builds
/// where the Security framework does not exist.
struct KeychainStatus: Error, Equatable, Sendable {
    /// The raw `OSStatus`.
    let rawValue: Int32

    /// `errSecSuccess`.
    static let success = KeychainStatus(rawValue: 0)
    /// `errSecItemNotFound`.
    static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecDuplicateItem`.
    static let duplicateItem = KeychainStatus(rawValue: -25299)
    /// `errSecInteractionNotAllowed`: the item is protected and the device is locked.
    static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement`: the app has no keychain access group (an unsigned macOS app, or one without the
    /// `keychain-access-groups` entitlement that the data protection keychain needs).
    static let missingEntitlement = KeychainStatus(rawValue: -34018)

    /// The ``StorageError`` for this failure: ``StorageError/missingEntitlement(_:)`` for `errSecMissingEntitlement`,
    /// else ``StorageError/keychain(status:)``.
    var storageError: StorageError {
        self == .missingEntitlement ? .missingEntitlement("keychain-access-groups") : .keychain(status: rawValue)
    }
}
