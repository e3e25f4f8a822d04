// Apple-only: compiled to nothing on Linux, type-checked by Scripts/apple-typecheck.sh against the stand-ins.
#if canImport(CryptoKit) && (canImport(Darwin) || LIMEN_APPLE_TYPECHECK)
    import Foundation
    import Limen
    import LimenApple

    /// The DPoP article's configuration with a Secure Enclave key.
    func senderConstrainedOnApple() -> AuthClient {
        // snippet: dpop-secure-enclave
        var configuration = Configuration(
            issuer: URL(string: "https://id.example.com")!,
            clientID: "ios-app",
            redirectURI: URL(string: "com.example.app:/callback")!
        )
        configuration.dpop = SecureEnclaveDPoPKeys()
        let client = AuthClient(configuration: configuration)
        // snippet.hide
        return client
        // end snippet
    }
#endif
