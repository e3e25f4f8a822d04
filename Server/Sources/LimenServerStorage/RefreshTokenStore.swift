import Foundation

/// A refresh token as stored: only its SHA-256 hash, and after rotation the response that replaced it, sealed under
/// a key only the token's holder can derive (see ``RefreshSuccessorSeal``), and the hash of the successor it carries.
///
/// The links make a chain per grant. A token presented again whose successor was never presented is a retry (its
/// answer was lost); a token presented after its successor was used, or a retired successor presented, means two
/// holders: the chain has forked and the grant is revoked.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token.
    public var tokenHash: Data
    /// The grant it belongs to.
    public var grantID: String
    /// When it was issued.
    public var issuedAt: Date
    /// When it stops being accepted.
    public var expiresAt: Date
    /// When it was last exchanged for a successor.
    public var rotatedAt: Date?
    /// The token response its rotation produced, AES-GCM-sealed; a retry within the grace window gets it again.
    public var sealedSuccessor: Data?
    /// SHA-256 of the refresh token its latest rotation issued (`nil` before its first rotation, and for tokens
    /// rotated before the chain was recorded).
    public var successorHash: Data?
    /// When it was retired unused: its predecessor was presented again and rotated anew, so its holder is not the
    /// one who retried, and presenting it revokes the grant.
    public var retiredAt: Date?

    /// Creates a refresh token record.
    public init(
        tokenHash: Data,
        grantID: String,
        issuedAt: Date,
        expiresAt: Date,
        rotatedAt: Date? = nil,
        sealedSuccessor: Data? = nil,
        successorHash: Data? = nil,
        retiredAt: Date? = nil
    ) {
        self.tokenHash = tokenHash
        self.grantID = grantID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.sealedSuccessor = sealedSuccessor
        self.successorHash = successorHash
        self.retiredAt = retiredAt
    }
}

/// A refresh token, its grant and the grant's user, read together: what a refresh needs before it issues anything.
public struct RefreshTokenWithGrant: Sendable, Equatable {
    /// The stored refresh token.
    public var token: RefreshTokenRecord
    /// Its grant.
    public var grant: GrantRecord
    /// The grant's user (its subject), `nil` if that user is gone.
    public var user: UserRecord?
    /// When the browser session the grant is bound to ends (``GrantRecord/browserSessionHash``); `nil` without one.
    public var sessionExpiresAt: Date?

    /// Pairs a refresh token with its grant, the grant's user and its browser session's end.
    public init(token: RefreshTokenRecord, grant: GrantRecord, user: UserRecord?, sessionExpiresAt: Date? = nil) {
        self.token = token
        self.grant = grant
        self.user = user
        self.sessionExpiresAt = sessionExpiresAt
    }

    /// Whether the grant's browser session (if it is bound to one) still lasts at `date`.
    package func sessionLasts(at date: Date) -> Bool {
        grant.browserSessionHash == nil || sessionExpiresAt.map { date < $0 } == true
    }
}

/// One rotation of a refresh token: the token exchanged, the response kept for retries, and its successor; when the
/// token was rotated before and its successor never presented, also that unused successor, which it retires.
public struct RefreshTokenRotation: Sendable, Equatable {
    /// SHA-256 of the token being exchanged.
    public var tokenHash: Data
    /// When it is exchanged.
    public var rotatedAt: Date
    /// The response of this exchange, sealed under the exchanged token (see ``RefreshTokenRecord/sealedSuccessor``).
    public var sealedSuccessor: Data
    /// The refresh token the response carries, stored only when this rotation wins.
    public var successor: RefreshTokenRecord
    /// When the newest token of the grant expires: the grant lives at least until then.
    public var grantExpiresAt: Date
    /// SHA-256 of the unused successor of an earlier rotation, which this one retires; `nil` for a first rotation.
    public var retiredSuccessorHash: Data?

    /// Describes a rotation.
    public init(
        tokenHash: Data,
        rotatedAt: Date,
        sealedSuccessor: Data,
        successor: RefreshTokenRecord,
        grantExpiresAt: Date,
        retiredSuccessorHash: Data? = nil
    ) {
        self.tokenHash = tokenHash
        self.rotatedAt = rotatedAt
        self.sealedSuccessor = sealedSuccessor
        self.successor = successor
        self.grantExpiresAt = grantExpiresAt
        self.retiredSuccessorHash = retiredSuccessorHash
    }
}

/// The refresh-token part of the ``Store``: tokens by hash, and their one-time rotation.
public protocol RefreshTokenStore: Sendable {
    /// Stores a new refresh token.
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError)
    /// The refresh token with this hash, if it has not been swept.
    func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord?
    /// The refresh token with this hash, its grant and the grant's user, in one read; `nil` when the token or the
    /// grant is gone.
    func refreshTokenWithGrant(hash: Data) async throws(StorageError) -> RefreshTokenWithGrant?
    /// If the token was not rotated (nor retired) already — or, with ``RefreshTokenRotation/retiredSuccessorHash``,
    /// if that is still its successor and was never rotated nor retired: marks it rotated, keeps the sealed response
    /// and links the new successor, retires the old successor, stores the new one and extends the grant to
    /// ``RefreshTokenRotation/grantExpiresAt``, as one step. Returns whether this call rotated it; of concurrent
    /// callers exactly one does, and only its successor is stored. The successor is usable no later than the rotation
    /// is visible. Should the retired successor be used concurrently all the same, the chain has forked: the grant is
    /// revoked and the call returns `false`.
    func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool
    /// Deletes refresh tokens that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int
}
