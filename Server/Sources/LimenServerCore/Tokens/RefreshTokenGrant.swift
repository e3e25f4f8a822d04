import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// `grant_type=refresh_token` (RFC 6749 §6) with rotation (RFC 9700 §4.14.2).
///
/// Every use returns a new refresh token and marks the old one rotated. A token presented again is answered as long
/// as the chain has not forked: within the grace window with the very same response (opened from its
/// ``RefreshSuccessorSeal``), later — its answer was lost, say — with a fresh rotation that retires the successor it
/// got before, provided that successor was never presented. A token presented after its successor was used, or a
/// retired successor presented, means two holders of one chain: the whole grant is revoked. `scope` may narrow the
/// access token's scope, never widen it.
package struct RefreshTokenGrant: Sendable {
    /// Where codes, grants and refresh tokens are kept.
    package let store: any GrantStore & RefreshTokenStore
    /// Makes the tokens.
    package let issuer: TokenIssuer
    /// The provider's clock.
    package let now: @Sendable () -> Date
    /// Stamps the events of a reuse (`token.reuse_detected`, `grant.revoked`).
    package let events: SecurityEventRecorder

    /// Makes it of its parts.
    package init(
        store: any GrantStore & RefreshTokenStore, issuer: TokenIssuer, now: @escaping @Sendable () -> Date,
        events: SecurityEventRecorder
    ) {
        self.store = store
        self.issuer = issuer
        self.now = now
        self.events = events
    }

    /// One refresh request: the token presented, by whom, and when.
    private struct Presentation {
        var token: String
        var tokenHash: Data
        var form: FormFields
        var client: ClientRecord
        /// The thumbprint of the key of the request's DPoP proof, if it has one.
        var proofKey: String?
        var now: Date
        /// The request's logger, carrying its request id.
        var logger: Logger
        /// Where the request came from.
        var origin: RequestOrigin
    }

    /// Exchanges the refresh token in the request's form for new tokens of its client; a reuse that revokes the grant
    /// is logged through the request's logger. The new access token is bound to the key of the request's DPoP proof if
    /// it has one, and a refresh token bound to a key (``GrantRecord/proofKey``) is refused without a proof by that
    /// very key (RFC 9449 §5).
    package func refresh(_ tokenRequest: TokenRequest) async throws -> JSONValue {
        let token = try tokenRequest.form.required("refresh_token")
        let request = Presentation(
            token: token, tokenHash: RandomIdentifier.hash(token), form: tokenRequest.form,
            client: tokenRequest.client, proofKey: tokenRequest.proofKey,
            now: Date(timeIntervalSince1970: self.now().timeIntervalSince1970.rounded(.down)),
            logger: tokenRequest.logger, origin: tokenRequest.origin)
        let found = try await usableToken(of: request)
        if found.token.rotatedAt != nil || found.token.retiredAt != nil {
            return try await retry(of: found, request, mayRotate: true)
        }
        return try await rotate(found, request, retiring: nil)
    }

    /// The presented token with its grant, when the token, its grant and the grant's client all allow a refresh now,
    /// and the request proves the key the grant's refresh tokens are bound to, if they are.
    private func usableToken(of request: Presentation) async throws -> RefreshTokenWithGrant {
        guard let found = try await store.refreshTokenWithGrant(hash: request.tokenHash),
            request.now < found.token.expiresAt, found.grant.isActive(at: request.now),
            found.sessionLasts(at: request.now),
            found.grant.clientID == request.client.id, request.now < issuer.lifetimes.deadline(of: found.grant),
            Self.provesKey(of: found.grant, with: request.proofKey)
        else { throw TokenEndpointError.invalidGrant }
        return found
    }

    /// Whether a request whose DPoP proof is by `proofKey` may refresh `grant`: its refresh tokens are unbound, or bound
    /// to that key.
    private static func provesKey(of grant: GrantRecord, with proofKey: String?) -> Bool {
        guard let bound = grant.proofKey else { return true }
        return proofKey.map { ConstantTime.equals($0, bound) } ?? false
    }

    /// Issues new tokens and rotates the presented one to them, retiring `retiring` (its unused successor) if given.
    private func rotate(
        _ found: RefreshTokenWithGrant,
        _ request: Presentation,
        retiring: Data?
    ) async throws -> JSONValue {
        let grant = found.grant
        let scope = try Self.scope(requested: request.form["scope"], granted: grant.scope)
        let tokens = try await issuer.issue(
            grant: grant, client: request.client, scope: scope, nonce: nil, user: found.user,
            resource: issuer.resource(in: request.form), proofKey: request.proofKey)
        guard let successor = tokens.refreshToken else { throw TokenEndpointError.serverError }
        let rotation = RefreshTokenRotation(
            tokenHash: request.tokenHash, rotatedAt: request.now,
            sealedSuccessor: try RefreshSuccessorSeal.seal(tokens.body, under: request.token),
            successor: successor, grantExpiresAt: tokens.lastExpiry, retiredSuccessorHash: retiring)
        guard try await store.rotateRefreshToken(rotation) else {
            // A concurrent request rotated it first, or the chain forked meanwhile: answer as that outcome requires.
            return try await retry(of: try await usableToken(of: request), request, mayRotate: false)
        }
        return tokens.body
    }

    /// A rotated or retired token presented again: the same response within the grace window; past it, a fresh
    /// rotation (when `mayRotate`) if its successor was never presented; otherwise the chain has forked and the
    /// grant is revoked.
    private func retry(
        of found: RefreshTokenWithGrant,
        _ request: Presentation,
        mayRotate: Bool
    ) async throws -> JSONValue {
        let record = found.token
        if record.retiredAt == nil, let rotatedAt = record.rotatedAt,
            request.now.timeIntervalSince(rotatedAt) <= issuer.lifetimes.refreshReuseGrace,
            let sealed = record.sealedSuccessor,
            let body = RefreshSuccessorSeal.open(sealed, with: request.token)
        {
            return body
        }
        if mayRotate, record.retiredAt == nil, let successorHash = record.successorHash,
            let successor = try await store.refreshToken(hash: successorHash),
            successor.rotatedAt == nil, successor.retiredAt == nil
        {
            return try await rotate(found, request, retiring: successorHash)
        }
        let (user, client) = (found.grant.subject, found.grant.clientID)
        let reuse = [
            SecurityEvent(.tokenReuseDetected, user: user, client: client),
            SecurityEvent(.grantRevoked, user: user, client: client, details: .ended(.reuse)),
        ]
        try await store.revokeGrant(
            id: found.grant.id, at: request.now, recording: events.records(reuse, from: request.origin))
        request.logger.warning(
            "A refresh token was presented after its successor was used (two holders); its grant is revoked",
            metadata: ["client_id": "\(found.grant.clientID)", "grant_id": "\(found.grant.id)"]
        )
        throw TokenEndpointError.invalidGrant
    }

    /// The scope of the new access token: the requested one if it is within the grant (RFC 6749 §6), else the grant's.
    package static func scope(requested: String?, granted: String) throws(TokenEndpointError) -> String {
        guard let requested else { return granted }
        guard Scope(granted).includes(Scope(requested)) else { throw .invalidScope }
        return requested.split(separator: " ").joined(separator: " ")
    }
}
