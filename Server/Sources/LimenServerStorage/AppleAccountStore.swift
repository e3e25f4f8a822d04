import Foundation

/// What Apple said of a user at their latest Sign in with Apple, and Apple's refresh token for them.
public struct AppleAccountRecord: Sendable, Equatable {
    /// The Limen user.
    public var userID: String
    /// Apple's `sub` for them.
    public var subject: String
    /// Whether their address is one of Apple's private relay.
    public var isPrivateEmail: Bool
    /// Apple's `real_user_status` (0 unsupported, 1 unknown, 2 likely real); `nil` when Apple sent none.
    public var realUserStatus: Int?
    /// Apple's refresh token, AES-GCM-sealed (``AppleRefreshTokenSeal``), never in clear; `nil` when none was redeemed.
    public var sealedRefreshToken: Data?
    /// The bundle ID Apple gave the refresh token to (its `client_id` when revoking it); set with the token.
    public var refreshTokenClientID: String?
    /// When the row was last written.
    public var updatedAt: Date

    /// Creates a record.
    public init(
        userID: String,
        subject: String,
        isPrivateEmail: Bool,
        realUserStatus: Int?,
        sealedRefreshToken: Data? = nil,
        refreshTokenClientID: String? = nil,
        updatedAt: Date
    ) {
        self.userID = userID
        self.subject = subject
        self.isPrivateEmail = isPrivateEmail
        self.realUserStatus = realUserStatus
        self.sealedRefreshToken = sealedRefreshToken
        self.refreshTokenClientID = refreshTokenClientID
        self.updatedAt = updatedAt
    }
}

/// The Apple accounts part of the ``Store``: one row per user, gone with the user.
public protocol AppleAccountStore: Sendable {
    /// Writes `record` for its user; a `nil` ``AppleAccountRecord/sealedRefreshToken`` keeps the one stored, with its
    /// client ID (a sign-in without a redeemed code does not forget the token Apple gave before).
    func saveAppleAccount(_ record: AppleAccountRecord) async throws(StorageError)
    /// Forgets Apple's refresh token for the user `userID` (Apple invalidated it), keeping the rest of the record.
    func forgetAppleRefreshToken(userID: String) async throws(StorageError)
    /// The record of the user `userID`, if they ever signed in with Apple.
    func appleAccount(userID: String) async throws(StorageError) -> AppleAccountRecord?
}
