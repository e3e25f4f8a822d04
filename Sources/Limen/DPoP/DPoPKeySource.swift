import Foundation
import LimenWire

/// Where an ``AuthClient``'s DPoP key comes from (``Configuration/dpop``): it makes a new key, and finds a stored one
/// again from the bytes the key gave to be stored (`DPoPKey.persistentRepresentation`).
///
/// The client keeps those bytes in its ``Configuration/store`` (the Keychain on Apple platforms), next to the session.
/// ``SoftwareDPoPKeys`` makes swift-crypto keys on every platform; LimenApple's `SecureEnclaveDPoPKeys` makes keys
/// that never leave the Secure Enclave.
public protocol DPoPKeySource: Sendable {
    /// A new key.
    func makeKey() throws -> any DPoPKey
    /// The key whose `DPoPKey.persistentRepresentation` is `data`.
    func restoreKey(from data: Data) throws -> any DPoPKey
}

/// DPoP keys made by swift-crypto (P-256), on every platform: the private key is kept in the client's secure store.
///
/// ```swift
/// var configuration = Configuration(issuer: issuer, clientID: "app")
/// configuration.dpop = SoftwareDPoPKeys()
/// ```
public struct SoftwareDPoPKeys: DPoPKeySource {
    /// Makes software keys.
    public init() {}

    /// A new random P-256 key.
    public func makeKey() throws -> any DPoPKey { SoftwareDPoPKey() }

    /// The key from its raw private scalar.
    public func restoreKey(from data: Data) throws -> any DPoPKey {
        try SoftwareDPoPKey(persistentRepresentation: data)
    }
}
