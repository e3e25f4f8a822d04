import Foundation
import LimenOIDC
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
        guard let record = try await store.refreshToken(hash: tokenHash), now < record.expiresAt,
            let grant = try await store.grant(id: record.grantID), grant.isActive(at: now),
            grant.clientID == client.id, now < issuer.lifetimes.deadline(of: grant)
        else { throw TokenEndpointError.invalidGrant }
        if record.rotatedAt != nil { return try await reuse(of: record, token: token, grant: grant, now: now) }

        let scope = try Self.scope(requested: form["scope"], granted: grant.scope)
        let tokens = try await issuer.issue(grant: grant, client: client, scope: scope, nonce: nil)
        guard let successor = tokens.refreshToken else { throw TokenEndpointError.serverError }
        // The successor is stored first so that it exists the moment the rotation makes it reachable.
        try await store.insertRefreshToken(successor)
        let sealed = try RefreshSuccessorSeal.seal(tokens.body, under: token)
        guard try await store.rotateRefreshToken(hash: tokenHash, at: now, sealedSuccessor: sealed) else {
            // A concurrent request rotated it first: answer with its response.
            try await store.deleteRefreshToken(hash: successor.tokenHash)
            guard let rotated = try await store.refreshToken(hash: tokenHash) else {
                throw TokenEndpointError.invalidGrant
            }
            return try await reuse(of: rotated, token: token, grant: grant, now: now)
        }
        try await store.extendGrant(id: grant.id, until: tokens.lastExpiry)
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
