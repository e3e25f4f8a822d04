/// Apple-platform adapters for Limen: ``KeychainStore``, ``WebAuthenticationSessionUserAgent`` and Combine
/// publishers on `AuthClient`.
///
/// Every adapter is compiled only where its framework exists, so this module builds (empty) on Linux. Check
/// ``isAvailable`` to choose between the Apple adapters and their cross-platform twins:
///
/// ```swift
/// #if canImport(Security)
///     let store: any SecureStore = try KeychainStore(namespace: "main")
/// #else
///     let store: any SecureStore = try EncryptedFileStore(directory: directory, namespace: "main")
/// #endif
/// print(LimenApple.isAvailable)  // true on iOS, macOS and visionOS; false on Linux
/// ```
public enum LimenApple {
    /// Whether the Apple adapters are compiled into this build: `true` on Apple platforms, `false` elsewhere.
    public static let isAvailable: Bool = {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }()
}
