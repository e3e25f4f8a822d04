import Foundation
import LimenServerStorage
import LimenWire

/// The one rule for who may change an account with an access token: link an identity (a flow started with a bearer
/// token), unlink one, delete the account, change its password or address. Every such path asks
/// ``authorize(_:clientSecret:)`` and changes nothing unless it answers a ``AccountChangePermit``.
///
/// A change is allowed only when all of these hold, checked in this order (each refusal is an
/// ``AccountChangeRefusal``):
/// 1. the bearer token is one this provider issued and still honours, granting `openid` (``AccessTokenVerifier``);
/// 2. it was minted for Limen itself: its audience is the issuer alone, so a token minted for an API (RFC 8707
///    `resource`) is refused and an API holding its copy can change nothing;
/// 3. its client is first party: a third-party app never changes an account, whatever it was granted;
/// 4. a confidential client proves its secret with the request (`client_secret`), as at `/token`: its token alone,
///    in whoever's hands, changes nothing (a public client has no secret to prove);
/// 5. the person signed in recently: `auth_time` within ``TokenLifetimes/accountChangeMaxAge``, otherwise RFC 9470's
///    step-up challenge. A guest (no identity) is exempt: the token is the only credential a guest has.
///
/// The hosted account page asks ``authorize(session:user:)`` instead: its browser session is the authority (the page
/// checks its CSRF token), so only the last rule applies, to the session's sign-in.
package struct AccountChangeGate: Sendable {
    /// Checks the bearer token.
    package let verifier: AccessTokenVerifier
    /// The issuer, the only audience of a token minted for Limen itself.
    package let issuer: IssuerBox
    /// The client records, served for a few seconds.
    package let clients: ClientCache
    /// Where the clients and users are kept.
    package let store: any ClientStore & UserStore
    /// How long after signing in a person may change their account (``TokenLifetimes/accountChangeMaxAge``).
    package let maxAge: TimeInterval
    /// The clock.
    package let now: @Sendable () -> Date

    /// A gate checking tokens with `verifier` for `issuer`, reading clients through `clients` and users from `store`.
    package init(
        verifier: AccessTokenVerifier, issuer: IssuerBox, clients: ClientCache, store: any ClientStore & UserStore,
        maxAge: TimeInterval, now: @escaping @Sendable () -> Date
    ) {
        (self.verifier, self.issuer, self.clients, self.store) = (verifier, issuer, clients, store)
        (self.maxAge, self.now) = (maxAge, now)
    }

    /// Whether the access `token`, sent with `clientSecret` (a confidential client's proof), may change its user's
    /// account.
    package func authorize(
        _ token: PresentedAccessToken?,
        clientSecret: String?
    ) async throws(StorageError) -> Result<AccountChangePermit, AccountChangeRefusal> {
        guard let token else { return .failure(.missingToken) }
        let claims: AccessTokenClaims
        switch try await verifier.authorizeForIssuer(token, issuer: issuer.current) {
        case .failure(.challenge(.insufficientScope)): return .failure(.insufficientScope)
        case .failure(.notIssuedForLimen): return .failure(.notIssuedForLimen)
        case .failure(.challenge(.wrongScheme)): return .failure(.wrongScheme)
        case .failure(.challenge(.dpop(let refusal))): return .failure(.dpop(refusal))
        case .failure: return .failure(.invalidToken)
        case .success(let verified): claims = verified
        }
        guard let client = try await clients.client(id: claims.clientID, in: store),
            client.isFirstParty
        else { return .failure(.thirdPartyClient) }
        if client.kind == .confidential, !(clientSecret.map(client.isProved(bySecret:)) ?? false) {
            return .failure(.clientNotAuthenticated)
        }
        guard let user = try await store.user(id: claims.subject) else { return .failure(.invalidToken) }
        if let stale = freshness(of: claims.authTime, for: user) { return .failure(stale) }
        return .success(AccountChangePermit(claims: claims, user: user, client: client))
    }

    /// Whether `user`, signed in with the browser `session`, may change their account now: refused with
    /// ``AccountChangeRefusal/staleAuthentication(maxAge:)`` when the session's sign-in is older than ``maxAge``,
    /// unless `user` is a guest.
    package func authorize(session: BrowserSessionRecord, user: UserRecord) -> Result<Void, AccountChangeRefusal> {
        if let stale = freshness(of: session.authTime, for: user) { return .failure(stale) }
        return .success(())
    }

    /// The refusal of a change by `user` whose sign-in was at `authTime`, when it is not recent enough; `nil` when it
    /// is, or when `user` is a guest.
    private func freshness(of authTime: Date?, for user: UserRecord) -> AccountChangeRefusal? {
        guard !user.isAnonymous else { return nil }
        guard let authTime, now().timeIntervalSince(authTime) <= maxAge else {
            return .staleAuthentication(maxAge: Int(maxAge))
        }
        return nil
    }
}

/// What ``AccountChangeGate`` found when it allowed a change: the token's claims, its user as stored now, and its
/// (first-party) client.
package struct AccountChangePermit: Sendable, Equatable {
    /// The verified claims of the token.
    package var claims: AccessTokenClaims
    /// The user the change is for.
    package var user: UserRecord
    /// The client that asks.
    package var client: ClientRecord
}
