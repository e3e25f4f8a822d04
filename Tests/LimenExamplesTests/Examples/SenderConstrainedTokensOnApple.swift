// Apple-only: compiled to nothing on Linux, type-checked by Scripts/apple-typecheck.sh against the stand-ins.
#if canImport(CryptoKit) && (canImport(Darwin) || LIMEN_APPLE_TYPECHECK)
    import Foundation
    import Limen
    import LimenApple

    /// The DPoP article's configuration with a Secure Enclave key.
    func senderConstrainedOnApple(_ configuration: Configuration) -> AuthClient {
        var configuration = configuration
        // snippet: dpop-secure-enclave
        configuration.dpop = SecureEnclaveDPoPKeys()
        // end snippet
        return AuthClient(configuration: configuration)
    }
#endif
