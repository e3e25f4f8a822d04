/// Apple-platform adapters for Limen: ``WebAuthenticationSessionUserAgent``, `UIApplicationUniversalLinkOpener` (the
/// opener of `AppToAppUserAgent`), Combine publishers on `AuthClient`, and `AuthClient.resumeWhenActive()`, which
/// retries storage the locked Keychain refused when the app becomes active.
///
/// Every adapter is compiled only where its framework exists, so this module builds (empty) on Linux.
/// The Combine publishers exist on every Apple platform; ``WebAuthenticationSessionUserAgent`` on iOS, macOS
/// (including Mac Catalyst) and visionOS. `KeychainStore` lives in `Limen` itself, because it is the default store
/// there (see `DefaultStore`).
///
/// ```swift
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
