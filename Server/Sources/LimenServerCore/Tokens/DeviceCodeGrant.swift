import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4–§3.5).
///
/// Each poll is recorded: one sooner than the interval after the previous poll is `slow_down` and adds 5 seconds to
/// the interval; otherwise the answer is `authorization_pending`, `access_denied`, or — once, the poll that spends the
/// code — the tokens. A code of another client or a spent code is `invalid_grant`; an expired one `expired_token`.
package struct DeviceCodeGrant: Sendable {
    /// Where device authorizations, grants and refresh tokens are kept.
    package let store: any DeviceAuthorizationStore & GrantStore & RefreshTokenStore
    /// Makes the tokens.
    package let issuer: TokenIssuer
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any DeviceAuthorizationStore & GrantStore & RefreshTokenStore, issuer: TokenIssuer,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.issuer = issuer
        self.now = now
    }

    /// Answers a poll by the request's client with the device code in its form; the tokens are bound to its DPoP
    /// proof's key if it has one.
    package func exchange(_ request: TokenRequest) async throws -> JSONValue {
        let (form, client) = (request.form, request.client)
        let deviceCode = try form.required("device_code")
        let resource = try issuer.resource(in: form)
        let now = self.now()
        guard let previous = try await store.deviceAuthorization(deviceCodeHash: RandomIdentifier.hash(deviceCode)),
            previous.clientID == client.id, previous.status != .consumed
        else { throw TokenEndpointError.invalidGrant }
        guard now < previous.expiresAt else { throw TokenEndpointError.expiredToken }

        let (next, tooSoon) = Self.poll(previous, at: now)
        // Lost to a concurrent poll of the same code: that one was too soon for this one (or the other way round).
        guard try await store.recordDevicePoll(replacing: previous, with: next) else {
            throw TokenEndpointError.slowDown
        }
        if tooSoon { throw TokenEndpointError.slowDown }
        switch previous.status {
        case .pending: throw TokenEndpointError.authorizationPending
        case .denied: throw TokenEndpointError.accessDenied
        case .consumed: throw TokenEndpointError.invalidGrant
        case .approved:
            return try await issue(previous, client: client, now: now, resource: resource, proofKey: request.proofKey)
        }
    }

    /// The record after a poll at `now`, and whether the poll came sooner than the interval allows (then the interval
    /// grows and an approved code stays unspent).
    package static func poll(
        _ record: DeviceAuthorizationRecord,
        at now: Date
    ) -> (next: DeviceAuthorizationRecord, tooSoon: Bool) {
        var next = record
        next.lastPolledAt = now
        let tooSoon = record.lastPolledAt.map { now.timeIntervalSince($0) < Double(record.interval) } ?? false
        if tooSoon {
            next.interval += DeviceFlow.slowDownStep
        } else if record.status == .approved {
            next.status = .consumed
        }
        return (next, tooSoon)
    }

    /// The tokens of an approved (and now spent) authorization, through the same issuer as the code grant.
    private func issue(
        _ approved: DeviceAuthorizationRecord,
        client: ClientRecord,
        now: Date,
        resource: String?,
        proofKey: String?
    ) async throws -> JSONValue {
        guard let subject = approved.subject, let authTime = approved.authTime else {
            throw TokenEndpointError.invalidGrant
        }
        var grant = GrantRecord(
            id: RandomToken.make(byteCount: 16), clientID: client.id, subject: subject, scope: approved.scope,
            authTime: authTime, nonce: nil, createdAt: now, expiresAt: now, methods: approved.methods
        )
        let tokens = try await issuer.issue(
            grant: grant, client: client, scope: approved.scope, nonce: nil, resource: resource, proofKey: proofKey)
        grant.expiresAt = tokens.lastExpiry
        grant.proofKey = tokens.refreshTokenKey
        // Disabled since it approved: the tokens just signed are never handed out.
        guard try await store.insertGrant(grant) else { throw TokenEndpointError.invalidGrant }
        if let refreshToken = tokens.refreshToken { try await store.insertRefreshToken(refreshToken) }
        return tokens.body
    }
}
