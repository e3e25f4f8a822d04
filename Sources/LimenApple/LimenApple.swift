/// Apple-platform adapters for Limen: ``KeychainStore``, ``WebAuthenticationSessionUserAgent`` and Combine
/// publishers on `AuthClient`.
///
/// Every adapter is compiled only where its framework exists, so this module builds (empty) on Linux.
/// ``KeychainStore`` and the Combine publishers exist on every Apple platform; ``WebAuthenticationSessionUserAgent``
/// on iOS, macOS (including Mac Catalyst) and visionOS. Choose between the adapters and their cross-platform twins
/// at compile time:
///
/// ```swift
/// #if canImport(Security)
///     let store: any SecureStore = try KeychainStore(namespace: "main")
/// #else
///     let store: any SecureStore = try EncryptedFileStore(directory: directory, namespace: "main")
/// #endif
/// print(LimenApple.isAvailable)  // true on Apple platforms, false on Linux
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
