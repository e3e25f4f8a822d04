import Foundation
import LimenServerStorage

/// How long each token lives, and how long a grant may be kept alive by refreshing, in one place.
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
    /// How long after a rotation a retry with the old refresh token gets the very same response: 10 seconds (a client
    /// retrying concurrently). Later, a retry whose successor was never presented gets a fresh rotation instead.
    public var refreshReuseGrace: TimeInterval
    /// How long a grant lives from its creation however often it is refreshed: 90 days (RFC 9700 §4.14.2). No token
    /// of the grant outlives it, and a refresh after it is `invalid_grant`: the user signs in again.
    public var grantMaxLifetime: TimeInterval
    /// How long an anonymous user (no identity) is kept after their last refresh, or their creation when they never
    /// refreshed: 30 days. The expiry sweep then deletes them with their profile, grants and sessions.
    public var anonymousUser: TimeInterval
    /// How recent the sign-in behind an access token must be for an account change (``AccountChangeGate``: linking
    /// or unlinking an identity, deleting the account; its `auth_time`): 5 minutes, so that a stolen token or an
    /// unattended device cannot change the account (OWASP: re-authenticate for sensitive actions). A guest, who has
    /// nothing to sign in again with, is exempt.
    public var accountChangeMaxAge: TimeInterval

    /// The former name of ``accountChangeMaxAge``, from when it was asked only to delete an account.
    @available(*, deprecated, renamed: "accountChangeMaxAge")
    public var accountDeletionMaxAge: TimeInterval {
        get { accountChangeMaxAge }
        set { accountChangeMaxAge = newValue }
    }

    /// Access token lifetimes the server may be set to: a minute to a day (a bearer token is not revocable
    /// everywhere).
    public static let accessTokenRange = ClientRegistration.accessTokenLifetimeRange
    /// ID token lifetimes the server may be set to: a minute to a day.
    public static let idTokenRange: ClosedRange<TimeInterval> = 60...86_400
    /// Refresh token lifetimes the server may be set to: a minute to a year.
    public static let refreshTokenRange = ClientRegistration.refreshTokenLifetimeRange
    /// Reuse grace windows the server may be set to: none to a minute.
    public static let refreshReuseGraceRange: ClosedRange<TimeInterval> = 0...60
    /// Grant lifetimes the server may be set to: an hour to five years.
    public static let grantMaxLifetimeRange: ClosedRange<TimeInterval> = 3600...(5 * 365 * 86_400)
    /// Anonymous user lifetimes the server may be set to: an hour to five years.
    public static let anonymousUserRange: ClosedRange<TimeInterval> = 3600...(5 * 365 * 86_400)
    /// Account change authentication ages the server may be set to: a minute to a day.
    public static let accountChangeMaxAgeRange: ClosedRange<TimeInterval> = 60...86_400

    /// The defaults, each overridable.
    public init(
        accessToken: TimeInterval = 600,
        idToken: TimeInterval = 300,
        refreshToken: TimeInterval = 30 * 86_400,
        refreshReuseGrace: TimeInterval = 10,
        grantMaxLifetime: TimeInterval = 90 * 86_400,
        anonymousUser: TimeInterval = 30 * 86_400,
        accountChangeMaxAge: TimeInterval = 300
    ) {
        self.accessToken = accessToken
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.refreshReuseGrace = refreshReuseGrace
        self.grantMaxLifetime = grantMaxLifetime
        self.anonymousUser = anonymousUser
        self.accountChangeMaxAge = accountChangeMaxAge
    }
}

extension TokenLifetimes {
    /// These lifetimes with the client's own access and refresh token lifetimes where it has them.
    package func overridden(by client: ClientRecord) -> TokenLifetimes {
        var lifetimes = self
        lifetimes.accessToken = client.accessTokenLifetime ?? accessToken
        lifetimes.refreshToken = client.refreshTokenLifetime ?? refreshToken
        return lifetimes
    }

    /// The moment `grant` ends however often it is refreshed: its creation plus ``grantMaxLifetime``.
    package func deadline(of grant: GrantRecord) -> Date {
        grant.createdAt.addingTimeInterval(grantMaxLifetime)
    }

    /// These lifetimes shortened so that an access or refresh token of `grant` issued at `now` ends by the grant's
    /// ``deadline(of:)``, and the grant, which lives as long as its last token, is never extended beyond it.
    package func bounded(by grant: GrantRecord, at now: Date) -> TokenLifetimes {
        let remaining = max(0, deadline(of: grant).timeIntervalSince(now))
        var lifetimes = self
        lifetimes.accessToken = min(accessToken, remaining)
        lifetimes.refreshToken = min(refreshToken, remaining)
        return lifetimes
    }
}
