import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `POST /revoke` (RFC 7009) and `POST /introspect` (RFC 7662), client-authenticated like `/token`.
///
/// A token is tried as both kinds, in the order ``TokenKind/lookupOrder(of:hint:)`` picks from its shape and the
/// `token_type_hint` (RFC 7009 §2.1, RFC 7662 §2.1: a hint only orders the search). Revoking a refresh token revokes
/// its grant (and so every access token of it); revoking an access token revokes that token (its `jti`)
/// until it expires. A token issued to another client is refused with `unauthorized_client` (RFC 7009 §2.1); an
/// unknown, expired or already revoked token is answered with 200 (§2.2).
enum RevocationRoutes {
    static func add<Context: RemoteAddressRequestContext>(
        to router: some RouterMethods<Context>, service: TokenService
    ) {
        router.post("/revoke") { request, context in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            try await revoke(
                try form.required("token"), hint: form["token_type_hint"], by: client, service: service,
                origin: service.origin(of: request, context: context))
            var response = Response(status: .ok)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.post("/introspect") { request, _ in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            // Only a client that authenticated with a secret may introspect (RFC 7662 §2.1, §4).
            guard client.kind == .confidential else {
                throw TokenEndpointError.invalidClient(basicChallenge: false)
            }
            let claims = try await introspect(
                try form.required("token"), hint: form["token_type_hint"], by: client, service: service)
            return Responses.tokenJSON(.object(claims))
        }
    }

    private static func revoke(
        _ token: String,
        hint: String?,
        by client: ClientRecord,
        service: TokenService,
        origin: RequestOrigin
    ) async throws {
        let store = service.store
        let now = service.now()
        for kind in TokenKind.lookupOrder(of: token, hint: hint) {
            switch kind {
            case .refreshToken:
                guard let refreshToken = try await store.refreshToken(hash: RandomIdentifier.hash(token)) else {
                    continue
                }
                guard let grant = try await store.grant(id: refreshToken.grantID) else { return }
                try refuseUnlessOwned(by: client, clientID: grant.clientID)
                let revoked = SecurityEvent(
                    .grantRevoked, user: grant.subject, client: grant.clientID, details: .ended(.revoked))
                try await store.revokeGrant(
                    id: grant.id, at: now, recording: service.events.records([revoked], from: origin))
                return
            case .accessToken:
                guard let claims = service.verifier.signedClaims(token, now: now) else { continue }
                try refuseUnlessOwned(by: client, clientID: claims.clientID)
                try await store.revokeAccessToken(jti: claims.tokenID, expiresAt: claims.expiresAt)
                return
            }
        }
    }

    private static func refuseUnlessOwned(by client: ClientRecord, clientID: String) throws(TokenEndpointError) {
        guard clientID == client.id else { throw .unauthorizedClient("the token was issued to another client") }
    }

    /// RFC 7662 §2.2: the token's claims with `active: true`, or only `active: false`. A refresh token is described
    /// only to the client it was issued to; an access token to any confidential client (a resource server).
    private static func introspect(
        _ token: String,
        hint: String?,
        by client: ClientRecord,
        service: TokenService
    ) async throws -> [String: JSONValue] {
        for kind in TokenKind.lookupOrder(of: token, hint: hint) {
            let found: [String: JSONValue]? =
                switch kind {
                case .refreshToken: try await introspectRefreshToken(token, by: client, service: service)
                case .accessToken: try await introspectAccessToken(token, service: service)
                }
            if let found { return found }
        }
        return ["active": .bool(false)]
    }

    /// A stored refresh token's description (inactive unless usable and the asking client's); `nil` when no refresh
    /// token has this value.
    private static func introspectRefreshToken(
        _ token: String,
        by client: ClientRecord,
        service: TokenService
    ) async throws -> [String: JSONValue]? {
        let store = service.store
        let now = service.now()
        guard let refreshToken = try await store.refreshToken(hash: RandomIdentifier.hash(token)) else { return nil }
        guard refreshToken.rotatedAt == nil, now < refreshToken.expiresAt,
            let grant = try await store.grant(id: refreshToken.grantID), grant.isActive(at: now),
            grant.clientID == client.id
        else { return ["active": .bool(false)] }
        return [
            "active": .bool(true), "token_type": .string("refresh_token"), "client_id": .string(grant.clientID),
            "sub": .string(grant.subject), "scope": .string(grant.scope),
            "iss": .string(service.issuer.current),
            "iat": .number(refreshToken.issuedAt.timeIntervalSince1970),
            "exp": .number(refreshToken.expiresAt.timeIntervalSince1970),
        ]
    }

    /// An honoured access token's claims; `nil` when the token is not one this provider honours now.
    private static func introspectAccessToken(_ token: String, service: TokenService) async throws
        -> [String: JSONValue]?
    {
        guard let claims = try await service.verifier.verify(token) else { return nil }
        var members = claims.all
        members["active"] = .bool(true)
        // RFC 9449 §6.2: a bound token is a DPoP token, its `cnf.jkt` among the claims.
        members["token_type"] = .string(claims.confirmationKey == nil ? "Bearer" : "DPoP")
        return members
    }
}
