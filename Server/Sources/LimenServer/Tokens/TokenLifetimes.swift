import Foundation

/// How long each token lives, in one place.
///
/// ```swift
/// var lifetimes = TokenLifetimes()
/// lifetimes.accessToken = 300
/// ```
public struct TokenLifetimes: Sendable, Equatable {
    /// An RFC 9068 access token: 10 minutes.
    public var accessToken: TimeInterval
    /// An ID token: 5 minutes (it proves a sign-in; it is not a session).
    public var idToken: TimeInterval
    /// A refresh token: 30 days from its issue (each rotation issues a new one).
    public var refreshToken: TimeInterval
    /// How long after a rotation a retry with the old refresh token gets the same response instead of revoking the
    /// grant: 10 seconds (a lost response, a client retrying concurrently).
    public var refreshReuseGrace: TimeInterval

    /// The defaults, each overridable.
    public init(
        accessToken: TimeInterval = 600,
        idToken: TimeInterval = 300,
        refreshToken: TimeInterval = 30 * 24 * 3600,
        refreshReuseGrace: TimeInterval = 10
    ) {
        self.accessToken = accessToken
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.refreshReuseGrace = refreshReuseGrace
    }
}

extension TokenLifetimes {
    /// These lifetimes with the client's own access and refresh token lifetimes where it has them.
    func overridden(by client: ClientRecord) -> TokenLifetimes {
        var lifetimes = self
        lifetimes.accessToken = client.accessTokenLifetime ?? accessToken
        lifetimes.refreshToken = client.refreshTokenLifetime ?? refreshToken
        return lifetimes
    }
}
