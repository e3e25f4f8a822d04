import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure of a ``SecureStore`` to read, write, delete or coordinate access to a secret.
///
/// Messages name files and keys (identifiers chosen by the SDK) but never the stored secrets.
public enum StorageError: Error, Sendable, Equatable {
    /// The key is empty, too long, or contains a character other than ASCII letters, digits, `.`, `-`, `_`.
    case invalidKey(String)
    /// The namespace is empty, too long, or contains a character other than ASCII letters, digits, `-`, `_`.
    case invalidNamespace(String)
    /// A file is readable or writable by group or others, is owned by another user, or is not a regular file,
    /// so the store refuses to trust it. Fix with `chmod 600` (or remove the file).
    case insecurePermissions(path: String)
    /// The stored entry for the key failed authentication: it was altered, truncated, or moved from another
    /// key's file. The secret is lost; delete the entry and sign in again.
    case corrupted(key: String)
    /// The encryption key file is missing while entries exist, or does not hold exactly 32 bytes.
    case keyFileInvalid(path: String)
    /// A file-system call failed with the given `errno`.
    case io(path: String, errno: Int32)
    /// The cross-process lock file could not be opened or locked; `errno` tells why.
    case lockFailed(path: String, errno: Int32)
    /// A Keychain Services call failed with the given `OSStatus` (for example `-25308`,
    /// `errSecInteractionNotAllowed`, while the device is locked, or `-34018`, `errSecMissingEntitlement`, when the
    /// access group is not in the app's entitlements).
    case keychain(status: Int32)
    /// The Keychain refuses every call because the app lacks the named entitlement (`errSecMissingEntitlement`,
    /// `-34018`): on macOS the data protection keychain needs a signed app with `keychain-access-groups` (Xcode's
    /// Keychain Sharing capability). Noticed once, then refused without asking the Keychain again. Add the
    /// entitlement, or pass an ``EncryptedFileStore``.
    case missingEntitlement(String)

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .invalidKey: "storage.invalid_key"
        case .invalidNamespace: "storage.invalid_namespace"
        case .insecurePermissions: "storage.insecure_permissions"
        case .corrupted: "storage.corrupted"
        case .keyFileInvalid: "storage.key_file_invalid"
        case .io: "storage.io"
        case .lockFailed: "storage.lock_failed"
        case .keychain: "storage.keychain"
        case .missingEntitlement: "storage.missing_entitlement"
        }
    }

    /// Whether the same operation may succeed if tried again later (a transient resource shortage or an
    /// interrupted call); configuration and integrity failures are not retryable.
    public var isRetryable: Bool {
        switch self {
        case .io(_, let number), .lockFailed(_, let number):
            [EINTR, EAGAIN, EBUSY, EMFILE, ENFILE, ENOLCK].contains(number)
        case .keychain(let status):
            status == KeychainStatus.interactionNotAllowed.rawValue
        case .invalidKey, .invalidNamespace, .insecurePermissions, .corrupted, .keyFileInvalid, .missingEntitlement:
            false
        }
    }
}

extension StorageError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .invalidKey(let key):
            "The storage key \"\(key)\" is invalid: use 1–128 ASCII letters, digits, \".\", \"-\" or \"_\"."
        case .invalidNamespace(let namespace):
            "The storage namespace \"\(namespace)\" is invalid: use 1–64 ASCII letters, digits, \"-\" or \"_\"."
        case .insecurePermissions(let path):
            "Refusing to use \(path): it must be a regular file owned by the current user and accessible only "
                + "by them (chmod 600)."
        case .corrupted(let key):
            "The stored entry \"\(key)\" is corrupted or was tampered with and cannot be decrypted."
        case .keyFileInvalid(let path):
            "The encryption key file \(path) is missing or is not exactly 32 bytes long."
        case .io(let path, let number):
            "A file operation on \(path) failed: \(Self.describe(errno: number)) (errno \(number))."
        case .lockFailed(let path, let number):
            "Could not lock \(path): \(Self.describe(errno: number)) (errno \(number))."
        case .keychain(let status) where status == KeychainStatus.interactionNotAllowed.rawValue:
            "The keychain is not available while the device is locked (OSStatus \(status)); try again after unlock."
        case .keychain(let status):
            "A keychain operation failed with OSStatus \(status)."
        case .missingEntitlement(let entitlement):
            "The app lacks the \(entitlement) entitlement the Keychain needs (OSStatus -34018): add Keychain Sharing to "
                + "the app's signing capabilities, or pass an EncryptedFileStore."
        }
    }

    private static func describe(errno number: Int32) -> String {
        guard let message = strerror(number) else { return "unknown error" }
        return String(cString: message)
    }
}
