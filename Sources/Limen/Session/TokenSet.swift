import Foundation
import LimenOIDC

/// The tokens of one signed-in session, as kept in secure storage (one atomic write per set).
public struct TokenSet: Sendable, Codable, Equatable {
    /// The current access token.
    public var accessToken: String
    /// The refresh token, if the provider issued one.
    public var refreshToken: String?
    /// The last ID token, kept for `id_token_hint` and logout.
    public var idToken: String?
    /// When the access token expires; `nil` when the provider gave no lifetime.
    public var expiresAt: Date?
    /// The granted scope.
    public var scope: String?
    /// The validated ID token's subject.
    public var subject: String
    /// The validated ID token's claims (and later UserInfo claims).
    public var claims: [String: JSONValue]
    /// The `token_type` the provider issued the access token as: `Bearer`, or `DPoP` for a token bound to the
    /// client's DPoP key (RFC 9449 §5); `nil` in sessions stored before Limen kept it (bearer tokens).
    public var tokenType: String?

    /// Creates a token set.
    public init(
        accessToken: String,
        refreshToken: String?,
        idToken: String?,
        expiresAt: Date?,
        scope: String?,
        subject: String,
        claims: [String: JSONValue],
        tokenType: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.subject = subject
        self.claims = claims
        self.tokenType = tokenType
    }

    /// Whether the access token is DPoP-bound: presented with `Authorization: DPoP` and a proof of the key.
    public var isDPoPBound: Bool {
        tokenType?.caseInsensitiveCompare(DPoP.headerName) == .orderedSame
    }

    /// Whether the access token still has more than `leeway` seconds to live at `now`.
    public func hasFreshAccessToken(at now: Date, leeway: TimeInterval) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) > leeway
    }

    /// This set updated by a refresh: a rotated refresh token or new ID token replaces the old one, otherwise the
    /// old one is kept.
    func refreshed(with response: TokenResponse, receivedAt: Date, claims newClaims: [String: JSONValue]?) -> TokenSet {
        var next = self
        next.accessToken = response.accessToken
        next.refreshToken = response.refreshToken ?? refreshToken
        next.idToken = response.idToken ?? idToken
        next.expiresAt = response.expiresAt(receivedAt: receivedAt)
        next.scope = response.scope ?? scope
        next.tokenType = response.tokenType
        if let newClaims { next.claims = newClaims }
        return next
    }
}

extension TokenSet: CustomStringConvertible {
    /// A description that never contains a token.
    public var description: String {
        "TokenSet(subject: \(subject), expiresAt: \(expiresAt.map { "\($0)" } ?? "none"), "
            + "refreshable: \(refreshToken != nil))"
    }
}
