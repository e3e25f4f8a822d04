#if canImport(CryptoKit)
    import CryptoKit
    import Foundation
    import Limen

    /// DPoP keys (``Configuration/dpop``) made in the Secure Enclave, where the private key never leaves the hardware;
    /// a swift-crypto software key where the device has none (the Simulator, Macs without Apple silicon or T2).
    ///
    /// The client keeps the key's opaque handle (usable only on this device) in its store, the Keychain by default.
    ///
    /// ```swift
    /// var configuration = Configuration(issuer: issuer, clientID: "ios-app")
    /// configuration.dpop = SecureEnclaveDPoPKeys()
    /// ```
    public struct SecureEnclaveDPoPKeys: DPoPKeySource {
        /// Makes Secure Enclave keys where the device has one.
        public init() {}

        /// A new key in the Secure Enclave, or a software key where it is unavailable.
        public func makeKey() throws -> any DPoPKey {
            guard SecureEnclave.isAvailable else { return SoftwareDPoPKey() }
            return try SecureEnclaveDPoPKey(SecureEnclave.P256.Signing.PrivateKey())
        }

        /// The key from its stored form: a software key's is its 32-byte scalar, a Secure Enclave key's a longer handle.
        public func restoreKey(from data: Data) throws -> any DPoPKey {
            if data.count == 32 { return try SoftwareDPoPKey(persistentRepresentation: data) }
            return try SecureEnclaveDPoPKey(SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: data))
        }
    }

    /// A key in the Secure Enclave, kept as its handle (`dataRepresentation`) and opened for each signature.
    struct SecureEnclaveDPoPKey: DPoPKey {
        let publicKey: P256.Signing.PublicKey
        let persistentRepresentation: Data

        init(_ key: SecureEnclave.P256.Signing.PrivateKey) {
            publicKey = key.publicKey
            persistentRepresentation = key.dataRepresentation
        }

        func signature(for signingInput: Data) throws -> P256.Signing.ECDSASignature {
            try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: persistentRepresentation)
                .signature(for: signingInput)
        }
    }
#endif
