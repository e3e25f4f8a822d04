import Foundation
import LimenOIDC
import Logging

/// Refreshes a session's tokens: one refresh at a time for every caller in this process, and, across the processes
/// sharing one store, a refresh claim recorded under the store's lock file (held only around reads and writes, never
/// across the request) makes the others wait and re-read instead of spending the same refresh token again.
struct Refresher: Sendable {
    /// The store of the session, its lock and its refresh claims.
    let sessions: SessionStore
    /// Where ``AuthEvent/tokenRefreshed`` and ``AuthEvent/sessionExpired`` go.
    let events: EventBus
    /// The clock and time source, the leeway and the logger.
    let configuration: Configuration
    /// The owner of this client's refresh claims, among the clients sharing the store.
    let instanceID: String
    private let flight = SingleFlight<String?, LimenError>()

    /// Joins the refresh of `session` under way, or starts one; returns the access token to use, or `nil` when the
    /// session ended. A stored set with more than `margin` seconds left (another client's result) is adopted instead.
    func refresh<Session: RefreshableSession>(_ session: Session, margin: TimeInterval) async throws(LimenError)
        -> String?
    {
        try await flight.run { () async throws(LimenError) in try await self.run(on: session, margin: margin) }
    }

    /// One refresh. The store's cross-process lock is held only around reading and writing the store, never across
    /// the network call: before it, this client claims the refresh (``RefreshClaim``) unless another client's result
    /// is there to adopt or its claim is to be waited for; after it, holding the lock again, the result is saved and
    /// the claim released.
    private func run<Session: RefreshableSession>(on session: Session, margin: TimeInterval)
        async throws(LimenError) -> String?
    {
        let startedIn = await session.generation
        while true {
            let step = try await sessions.exclusively { () async throws(LimenError) in
                try await self.prepare(session, margin: margin, startedIn: startedIn)
            }
            switch step {
            case .done(let accessToken):
                return accessToken
            case .wait:
                do {
                    try await configuration.clock.sleep(for: RefreshClaim.pollInterval)
                } catch {
                    throw .storage(.lockFailed(path: sessions.claimKey, errno: EINTR))
                }
            case .refresh(let stored, let refreshToken):
                return try await refreshOutsideLock(session, stored, spending: refreshToken, startedIn: startedIn)
            }
        }
    }

    /// What a refresh does next, decided holding the store's lock.
    private enum Step: Sendable {
        /// Nothing more: the access token to return (`nil` when the session ended).
        case done(String?)
        /// Another client is refreshing: look again shortly.
        case wait
        /// Spend `refreshToken` of the stored set; this client now holds the claim.
        case refresh(TokenSet, refreshToken: String)
    }

    private func prepare(_ session: isolated some RefreshableSession, margin: TimeInterval, startedIn: Int)
        async throws(LimenError) -> Step
    {
        // A set the store has not accepted yet holds the only refresh token the provider still honours: it wins.
        await session.writeUnsavedSession()
        // Otherwise another process may have refreshed meanwhile: adopt its result.
        let stored: TokenSet?
        if session.hasUnsavedSession {
            stored = session.tokens
        } else {
            do {
                stored = try await sessions.load()
            } catch {
                throw .storage(error)
            }
        }
        guard session.generation == startedIn else { return .done(session.tokens?.accessToken) }
        guard let stored else {
            await session.endSession(phase: session.tokens == nil ? .signedOut : .expired)
            return .done(nil)
        }
        if stored != session.tokens,
            stored.hasFreshAccessToken(at: configuration.now(), leeway: min(margin, configuration.leeway))
        {
            session.adoptStored(stored)
            return .done(stored.accessToken)
        }
        guard let refreshToken = stored.refreshToken else {
            await expire(session)
            return .done(nil)
        }
        let now = configuration.now()
        if let claim = await sessions.claim(), claim.blocks(instanceID, at: now) { return .wait }
        let claim = RefreshClaim(
            owner: instanceID, expiresAt: now.addingTimeInterval(RefreshClaim.lifetime),
            process: ProcessInfo.processInfo.processIdentifier)
        if !(await sessions.record(claim)) {
            configuration.logger.notice("refresh claim not recorded; refreshing unannounced")
        }
        return .refresh(stored, refreshToken: refreshToken)
    }

    /// Spends `refreshToken` at the token endpoint, then, holding the lock again, saves the result and releases the
    /// claim.
    private func refreshOutsideLock<Session: RefreshableSession>(
        _ session: Session, _ stored: TokenSet, spending refreshToken: String, startedIn: Int
    ) async throws(LimenError) -> String? {
        let outcome: Result<Refreshed?, LimenError>
        do {
            outcome = .success(try await request(refreshToken, previous: stored, from: session))
        } catch {
            outcome = .failure(error)
        }
        do {
            return try await sessions.exclusively { () async throws(LimenError) in
                await self.sessions.releaseClaim()
                guard let refreshed = try outcome.get() else {
                    await self.expire(session)
                    return nil
                }
                return await self.finish(session, stored, refreshed, startedIn: startedIn)
            }
        } catch {
            // The lock could not be taken again, but the provider has spent the old refresh token: keep the new set
            // (unsaved, as when the store refuses it; the claim lapses), rather than lose the session.
            guard case .success(let refreshed?) = outcome else { throw error }
            return await finish(session, stored, refreshed, startedIn: startedIn)
        }
    }

    /// The token endpoint's answer and the refreshed ID token's claims.
    private struct Refreshed: Sendable {
        let response: TokenResponse
        let claims: [String: JSONValue]?
    }

    /// What the token endpoint answered to `refreshToken`; `nil` when the provider refused it (the session is over).
    private func request(_ refreshToken: String, previous: TokenSet, from session: some RefreshableSession)
        async throws(LimenError) -> Refreshed?
    {
        let client = try await session.tokenClient()
        let response: TokenResponse
        do {
            response = try await client.refresh(refreshToken)
        } catch .oauth(let error) where error.requiresReauthentication {
            return nil
        } catch .network(.httpStatus(let status)) where status == 400 || status == 401 {
            // A refusal without an OAuth body (some providers send an empty 400 for a revoked token).
            return nil
        } catch {
            throw LimenError(error)
        }
        return Refreshed(
            response: response, claims: try await refreshedClaims(response, previous: previous, from: session))
    }

    /// Adopts a refreshed set, unless the session changed meanwhile in this process (sign-in, sign-out).
    private func finish(
        _ session: isolated some RefreshableSession, _ stored: TokenSet, _ refreshed: Refreshed, startedIn: Int
    ) async -> String? {
        guard session.generation == startedIn else {
            configuration.logger.info("refresh finished after the session changed; result discarded")
            return nil
        }
        let next = stored.refreshed(with: refreshed.response, receivedAt: configuration.now(), claims: refreshed.claims)
        await session.adoptRefreshed(next)
        configuration.logger.debug(
            "access token refreshed",
            metadata: [
                "access_token": "\(Redaction.fingerprint(next.accessToken))",
                "refresh_token_rotated": "\(next.refreshToken != stored.refreshToken)",
            ]
        )
        events.emit(.tokenRefreshed)
        return next.accessToken
    }

    /// Validates an ID token returned by a refresh (OpenID Connect Core §12.2: same `iss`, `sub`, `aud`).
    private func refreshedClaims(_ response: TokenResponse, previous: TokenSet, from session: some RefreshableSession)
        async throws(LimenError) -> [String: JSONValue]?
    {
        guard let idToken = response.idToken else { return nil }
        let claims = try await session.validateIDToken(
            idToken, nonce: nil, maxAge: nil, accessToken: response.accessToken)
        guard claims.subject == previous.subject else {
            throw .protocolViolation(
                .invalidResponse(endpoint: "token", reason: "the refreshed ID token names another subject"))
        }
        return claims.all
    }

    /// Ends a session the provider no longer honours.
    private func expire(_ session: isolated some RefreshableSession) async {
        configuration.logger.info("refresh token refused; session expired")
        await session.endSession(phase: .expired)
        events.emit(.sessionExpired)
    }
}
