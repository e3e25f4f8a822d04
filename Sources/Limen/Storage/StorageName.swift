/// Validation of the identifiers that become part of file names and keychain account names.
///
/// Every ``SecureStore`` in Limen applies these rules, so a key that works with one store works with all of them.
/// Custom stores call these to refuse the same keys:
///
/// ```swift
/// try StorageName.validate(key: "tokens")            // fine
/// try StorageName.validate(namespace: "com.example") // throws .invalidNamespace: no "." allowed
/// ```
public enum StorageName {
    /// The longest accepted key, so that `<namespace>.<key>.sealed` and its temporary twin fit in a file name.
    public static let maximumKeyLength = 128
    /// The longest accepted namespace.
    public static let maximumNamespaceLength = 64

    /// Throws ``StorageError/invalidKey(_:)`` unless `key` is 1–128 ASCII letters, digits, `.`, `-`, `_`.
    public static func validate(key: String) throws(StorageError) {
        guard (1...maximumKeyLength).contains(key.utf8.count),
            key.utf8.allSatisfy({ isIdentifierByte($0) || $0 == UInt8(ascii: ".") })
        else { throw .invalidKey(key) }
    }

    /// Throws ``StorageError/invalidNamespace(_:)`` unless `namespace` is 1–64 ASCII letters, digits, `-`, `_`.
    ///
    /// A namespace has no `.`, so the file name `<namespace>.<key>.sealed` always splits in exactly one way.
    public static func validate(namespace: String) throws(StorageError) {
        guard (1...maximumNamespaceLength).contains(namespace.utf8.count),
            namespace.utf8.allSatisfy(isIdentifierByte)
        else { throw .invalidNamespace(namespace) }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
