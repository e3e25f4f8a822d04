import Foundation

/// A refresh token as stored: only its SHA-256 hash, and after rotation the response that replaced it, sealed under
/// a key only the token's holder can derive (see ``RefreshSuccessorSeal``).
public struct RefreshTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token.
    public var tokenHash: Data
    /// The grant it belongs to.
    public var grantID: String
    /// When it was issued.
    public var issuedAt: Date
    /// When it stops being accepted.
    public var expiresAt: Date
    /// When it was exchanged for a successor; a later use is a replay unless within the grace window.
    public var rotatedAt: Date?
    /// The token response its rotation produced, AES-GCM-sealed; a retry within the grace window gets it again.
    public var sealedSuccessor: Data?

    /// Creates a refresh token record.
    public init(
        tokenHash: Data,
        grantID: String,
        issuedAt: Date,
        expiresAt: Date,
        rotatedAt: Date? = nil,
        sealedSuccessor: Data? = nil
    ) {
        self.tokenHash = tokenHash
        self.grantID = grantID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.sealedSuccessor = sealedSuccessor
    }
}

/// The refresh-token part of the ``Store``: tokens by hash, and their one-time rotation.
public protocol RefreshTokenStore: Sendable {
    /// Stores a new refresh token.
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError)
    /// The refresh token with this hash, if it has not been swept.
    func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord?
    /// Marks the token rotated at `date` and keeps `sealedSuccessor`, in one step, if it was not rotated already;
    /// returns whether this call rotated it (of concurrent callers, exactly one does).
    func rotateRefreshToken(hash: Data, at date: Date, sealedSuccessor: Data) async throws(StorageError) -> Bool
    /// Deletes the refresh token with this hash (a successor whose rotation lost the race).
    func deleteRefreshToken(hash: Data) async throws(StorageError)
    /// Deletes refresh tokens that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int
}
