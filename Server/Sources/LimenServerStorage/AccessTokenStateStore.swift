import Foundation

/// What the store knows about one access token: the grant it belongs to and whether the token itself was revoked.
public struct AccessTokenState: Sendable, Equatable {
    /// The token's grant (its `grant_id` claim), revoked or not.
    public var grant: GrantRecord
    /// Whether the token's `jti` is on the revocation list.
    public var isTokenRevoked: Bool

    /// Creates an access token state.
    public init(grant: GrantRecord, isTokenRevoked: Bool) {
        self.grant = grant
        self.isTokenRevoked = isTokenRevoked
    }
}

/// The access-token part of the ``Store``: everything that can end an access token before it expires, read at once.
///
/// `/introspect` and `/userinfo` check every access token this way, so it is one store round trip, not one for the
/// grant and another for the revocation list.
public protocol AccessTokenStateStore: Sendable {
    /// The grant `grantID` and whether the access token `jti` has been revoked, in one read; `nil` when the grant
    /// does not exist (never made, or swept).
    func accessTokenState(grantID: String, jti: String) async throws(StorageError) -> AccessTokenState?
}
