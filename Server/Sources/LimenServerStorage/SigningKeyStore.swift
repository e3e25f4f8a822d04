import Foundation

/// The signing keys, sealed under the master key.
public protocol SigningKeyStore: Sendable {
    /// Every signing key, oldest first.
    func signingKeys() async throws(StorageError) -> [SigningKeyRecord]
    /// Stores a new signing key, with `events` (one unit).
    func insertSigningKey(_ key: SigningKeyRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
    /// Marks a key as no longer signing from `date` on (it stays published for a while).
    func retireSigningKey(kid: String, at date: Date) async throws(StorageError)
}

/// A signing key as stored: the private key only as AES-GCM ciphertext under the master key.
public struct SigningKeyRecord: Sendable, Equatable {
    /// The key ID (RFC 7638 thumbprint of the public key).
    public var kid: String
    /// `ES256` or `RS256`.
    public var algorithm: String
    /// The private key, sealed with AES-GCM (nonce, ciphertext and tag), bound to `kid`.
    public var encryptedPrivateKey: Data
    /// When the key was created (and published).
    public var createdAt: Date
    /// When the key starts signing: after it has been published long enough for clients to have fetched it.
    public var activatesAt: Date
    /// When the key stopped signing; it stays published until tokens it signed expire.
    public var retiredAt: Date?

    /// Creates a signing key record; `activatesAt` defaults to `createdAt`.
    public init(
        kid: String,
        algorithm: String,
        encryptedPrivateKey: Data,
        createdAt: Date,
        activatesAt: Date? = nil,
        retiredAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.encryptedPrivateKey = encryptedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
        self.retiredAt = retiredAt
    }
}

extension SigningKeyStore {
    /// Stores a new signing key, recording no event.
    public func insertSigningKey(_ key: SigningKeyRecord) async throws(StorageError) {
        try await insertSigningKey(key, recording: [])
    }
}
