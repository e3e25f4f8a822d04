import Foundation
import LimenWire
import Logging

/// `grant_type=refresh_token` (RFC 6749 §6) with rotation (RFC 9700 §4.14.2).
///
/// Every use returns a new refresh token and marks the old one rotated. A retry with the old token within the grace
/// window gets the very same response (opened from its ``RefreshSuccessorSeal``); a later one is taken for a stolen
/// token and revokes the whole grant. `scope` may narrow the access token's scope, never widen it.
struct RefreshTokenGrant: Sendable {
    private static let logger = Logger(label: "limen.tokens")

    /// Where codes, grants and refresh tokens are kept.
    let store: any Store
    /// Makes the tokens.
    let issuer: TokenIssuer
    /// The provider's clock.
    let now: @Sendable () -> Date

    /// Exchanges the refresh token in `form` for new tokens of `client`.
    func refresh(_ form: FormParameters, client: ClientRecord) async throws -> JSONValue {
        let token = try form.required("refresh_token")
        let tokenHash = RandomIdentifier.hash(token)
        let now = Date(timeIntervalSince1970: self.now().timeIntervalSince1970.rounded(.down))
        guard let found = try await store.refreshTokenWithGrant(hash: tokenHash), now < found.token.expiresAt,
            found.grant.isActive(at: now), found.grant.clientID == client.id,
            now < issuer.lifetimes.deadline(of: found.grant)
        else { throw TokenEndpointError.invalidGrant }
        let grant = found.grant
        if found.token.rotatedAt != nil {
            return try await reuse(of: found.token, token: token, grant: grant, now: now)
        }

        let scope = try Self.scope(requested: form["scope"], granted: grant.scope)
        let tokens = try await issuer.issue(grant: grant, client: client, scope: scope, nonce: nil, user: found.user)
        guard let successor = tokens.refreshToken else { throw TokenEndpointError.serverError }
        let rotation = RefreshTokenRotation(
            tokenHash: tokenHash, rotatedAt: now,
            sealedSuccessor: try RefreshSuccessorSeal.seal(tokens.body, under: token),
            successor: successor, grantExpiresAt: tokens.lastExpiry)
        guard try await store.rotateRefreshToken(rotation) else {
            // A concurrent request rotated it first: answer with its response.
            guard let rotated = try await store.refreshToken(hash: tokenHash) else {
                throw TokenEndpointError.invalidGrant
            }
            return try await reuse(of: rotated, token: token, grant: grant, now: now)
        }
        return tokens.body
    }

    /// A rotated token presented again: the same response within the grace window, otherwise the grant is revoked.
    private func reuse(
        of record: RefreshTokenRecord,
        token: String,
        grant: GrantRecord,
        now: Date
    ) async throws -> JSONValue {
        if let rotatedAt = record.rotatedAt,
            now.timeIntervalSince(rotatedAt) <= issuer.lifetimes.refreshReuseGrace,
            let sealed = record.sealedSuccessor,
            let body = RefreshSuccessorSeal.open(sealed, with: token)
        {
            return body
        }
        try await store.revokeGrant(id: grant.id, at: now)
        Self.logger.warning(
            "Rotated refresh token reused after the grace window; its grant is revoked",
            metadata: ["client_id": "\(grant.clientID)", "grant_id": "\(grant.id)"]
        )
        throw TokenEndpointError.invalidGrant
    }

    /// The scope of the new access token: the requested one if it is within the grant (RFC 6749 §6), else the grant's.
    static func scope(requested: String?, granted: String) throws(TokenEndpointError) -> String {
        guard let requested else { return granted }
        guard Scope(granted).includes(Scope(requested)) else { throw .invalidScope }
        return requested.split(separator: " ").joined(separator: " ")
    }
}
