import Crypto
import Foundation

/// A P-256 key that signs DPoP proofs with ES256 (RFC 9449 §4.2): a swift-crypto key in memory, or a key that never
/// leaves its hardware (LimenApple's Secure Enclave key).
///
/// The proof maker asks the key for its public half (the proof's `jwk` header) and for a signature over the proof's
/// signing input; it never sees the private key.
public protocol DPoPKey: Sendable {
    /// The public key, which every proof carries in its `jwk` header.
    var publicKey: P256.Signing.PublicKey { get }
    /// What the key's keeper stores to find the key again after a restart: the raw private key for a software key, an
    /// opaque, device-bound blob for a hardware key.
    var persistentRepresentation: Data { get }
    /// The ECDSA P-256 SHA-256 signature of `signingInput` (the proof's `header.payload`).
    func signature(for signingInput: Data) throws -> P256.Signing.ECDSASignature
}

/// A DPoP key held in memory by swift-crypto, on every platform.
///
/// ```swift
/// let key = SoftwareDPoPKey()
/// let restored = try SoftwareDPoPKey(persistentRepresentation: key.persistentRepresentation)
/// ```
public struct SoftwareDPoPKey: DPoPKey {
    /// The private key.
    public let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() {
        privateKey = P256.Signing.PrivateKey()
    }

    /// Wraps an existing key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// The key back from its ``persistentRepresentation``.
    /// - Throws: swift-crypto's error when `data` is not a P-256 private key.
    public init(persistentRepresentation data: Data) throws {
        privateKey = try P256.Signing.PrivateKey(rawRepresentation: data)
    }

    /// The public key.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The raw 32-byte private scalar: keep it only in a secure store.
    public var persistentRepresentation: Data { privateKey.rawRepresentation }

    /// Signs `signingInput` with ECDSA P-256 SHA-256.
    public func signature(for signingInput: Data) throws -> P256.Signing.ECDSASignature {
        try privateKey.signature(for: signingInput)
    }
}
