import Crypto
import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The tokens of one successful token request, and the refresh token to store (hashed) before answering.
package struct IssuedTokens: Sendable {
    /// The RFC 6749 §5.1 response body.
    package var body: JSONValue
    /// The new refresh token's record, when one was issued.
    package var refreshToken: RefreshTokenRecord?
    /// When the last issued token expires; the grant lives at least as long.
    var lastExpiry: Date
    /// The thumbprint of the DPoP key the refresh token is bound to: a public client's, when it sent a proof (RFC 9449
    /// §5; a confidential client authenticates at every refresh instead). A new grant stores it (``GrantRecord/proofKey``).
    var refreshTokenKey: String?
}

/// Makes the tokens a grant entitles a client to: an RFC 9068 access token, an ID token when the scope has `openid`,
/// and an opaque refresh token when the client may use the `refresh_token` grant and the grant may have one
/// (``GrantRecord/mayRefresh``: `offline_access`, or a browser session it ends with).
package struct TokenIssuer: Sendable {
    /// The access token's JOSE `typ` (RFC 9068 §2.1).
    static let accessTokenType = "at+jwt"
    /// The claim tying an access token to its grant, so revoking the grant reaches it.
    static let grantClaim = "grant_id"

    /// The signing keys.
    package let keys: KeyRingBox
    /// The issuer the tokens name.
    package let issuer: IssuerBox
    /// Where the users, their profiles and the grants are kept.
    package let store: any UserStore & ProfileStore & GrantStore & RefreshTokenStore & SecurityEventStore
    /// The app schema, for the profile claims.
    package let schemas: AppSchemaCache
    /// The APIs a token may be minted for (RFC 8707 `resource`; ``ServerConfiguration/resources``).
    package let resources: [String]
    /// How long each token lives.
    package let lifetimes: TokenLifetimes
    /// The signer for the current keys.
    package let signers: TokenSignerCache
    /// The clock.
    package let now: @Sendable () -> Date

    /// An issuer of tokens signed with `keys` for `issuer`, over `store`.
    package init(
        keys: KeyRingBox, issuer: IssuerBox,
        store: any UserStore & ProfileStore & GrantStore & RefreshTokenStore & SecurityEventStore,
        schemas: AppSchemaCache, resources: [String], lifetimes: TokenLifetimes, signers: TokenSignerCache,
        now: @escaping @Sendable () -> Date
    ) {
        (self.keys, self.issuer, self.store, self.schemas) = (keys, issuer, store, schemas)
        (self.resources, self.lifetimes, self.signers, self.now) = (resources, lifetimes, signers, now)
    }

    /// The `resource` of a token request (RFC 8707), checked against the server's `resources`; `nil` without one.
    package func resource(in form: FormFields) throws(TokenEndpointError) -> String? {
        guard let resource = form["resource"] else { return nil }
        if let problem = ResourceIndicator.problem(with: resource, allowed: resources) {
            throw .invalidTarget(problem)
        }
        return resource
    }

    /// Tokens for `grant`, narrowed to `scope`; `nonce` goes into the ID token (first issue only, OIDC Core §12.2).
    /// `user` is the grant's user when the caller has read it already; otherwise it is read from the store (its
    /// ``AuthLevel`` goes into both tokens, so that a level raised since the grant began shows on the next refresh).
    /// With a `resource` (RFC 8707) the access token's `aud` names it before the issuer. With a `proofKey`, the
    /// thumbprint of the key of the request's DPoP proof, the access token is bound to it (`cnf.jkt`, RFC 9449 §6.1) and
    /// its `token_type` is `DPoP` (§5).
    package func issue(
        grant: GrantRecord,
        client: ClientRecord,
        scope: String,
        nonce: String?,
        user knownUser: UserRecord? = nil,
        resource: String? = nil,
        proofKey: String? = nil
    ) async throws(TokenEndpointError) -> IssuedTokens {
        let now = Date(timeIntervalSince1970: self.now().timeIntervalSince1970.rounded(.down))
        let lifetimes = self.lifetimes.overridden(by: client).bounded(by: grant, at: now)
        let issuer = self.issuer.current
        let signer: TokenSigner
        do {
            signer = try await signers.signer(for: keys.current)
        } catch {
            throw .serverError
        }
        var user = knownUser
        if user == nil {
            do {
                user = try await store.user(id: grant.subject)
            } catch {
                throw .serverError
            }
        }
        guard let user else { throw .invalidGrant }
        let accessExpiry = now.addingTimeInterval(lifetimes.accessToken)
        var accessClaims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(grant.subject),
            AuthLevel.claimName: .string(user.authLevel.rawValue),
            "aud": resource.map { .array([.string($0), .string(issuer)]) } ?? .string(issuer),
            "client_id": .string(client.id), "scope": .string(scope), "iat": Self.seconds(now),
            "exp": Self.seconds(accessExpiry), "jti": .string(RandomToken.make(byteCount: 16)),
            "auth_time": Self.seconds(grant.authTime), Self.grantClaim: .string(grant.id),
        ]
        let authentication = Self.authenticationClaims(grant.methods)
        accessClaims.merge(authentication) { registered, _ in registered }
        if let proofKey { accessClaims["cnf"] = .object(["jkt": .string(proofKey)]) }
        let accessToken = try await sign(
            accessClaims,
            algorithm: .es256,
            type: Self.accessTokenType,
            signer: signer,
            now: now
        )
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": .string(proofKey == nil ? "Bearer" : "DPoP"),
            "expires_in": .number(lifetimes.accessToken), "scope": .string(scope),
        ]
        if Scope(scope).contains("openid") {
            var claims: [String: JSONValue]
            do {
                claims = try await UserInfoClaims.claims(
                    of: user, scope: Scope(scope), store: store, schemas: schemas)
            } catch {
                throw .serverError
            }
            claims.merge(
                [
                    "iss": .string(issuer), "sub": .string(grant.subject), "aud": .string(client.id),
                    "iat": Self.seconds(now), "exp": Self.seconds(now.addingTimeInterval(lifetimes.idToken)),
                    "auth_time": Self.seconds(grant.authTime), "at_hash": .string(Self.accessTokenHash(accessToken)),
                ].merging(authentication) { registered, _ in registered }
            ) { _, registered in registered }
            if let nonce { claims["nonce"] = .string(nonce) }
            body["id_token"] = .string(
                try await sign(
                    claims, algorithm: client.idTokenSignedResponseAlg, type: "JWT", signer: signer, now: now)
            )
        }
        var lastExpiry = accessExpiry
        var record: RefreshTokenRecord?
        var refreshTokenKey: String?
        if client.grantTypes.contains(.refreshToken) && grant.mayRefresh {
            let refreshToken = RandomIdentifier.make()
            let refreshExpiry = now.addingTimeInterval(lifetimes.refreshToken)
            body["refresh_token"] = .string(refreshToken)
            record = RefreshTokenRecord(
                tokenHash: RandomIdentifier.hash(refreshToken), grantID: grant.id, issuedAt: now,
                expiresAt: refreshExpiry)
            lastExpiry = max(lastExpiry, refreshExpiry)
            if client.kind == .public { refreshTokenKey = proofKey }
        }
        return IssuedTokens(
            body: .object(body), refreshToken: record, lastExpiry: lastExpiry, refreshTokenKey: refreshTokenKey)
    }

    /// `at_hash` (OpenID Connect Core §3.1.3.6): the left half of SHA-256 of the token, base64url — SHA-256 being
    /// the hash of both ES256 and RS256.
    static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
    }

    /// `acr` and `amr` of a sign-in by `methods` (OpenID Connect Core §2, RFC 8176; RFC 9068 §2.2.1 for access
    /// tokens): `amr` only when something authenticated the user.
    static func authenticationClaims(_ methods: AuthenticationMethods) -> [String: JSONValue] {
        var claims: [String: JSONValue] = ["acr": .string(AuthenticationLevel(methods).rawValue)]
        if !methods.values.isEmpty { claims["amr"] = .array(methods.values.map(JSONValue.string)) }
        return claims
    }

    private static func seconds(_ date: Date) -> JSONValue {
        .number(date.timeIntervalSince1970.rounded(.down))
    }

    private func sign(
        _ claims: [String: JSONValue],
        algorithm: SigningAlgorithm,
        type: String,
        signer: TokenSigner,
        now: Date
    ) async throws(TokenEndpointError) -> String {
        do {
            return try await signer.sign(claims, algorithm: algorithm, type: type, at: now)
        } catch {
            throw .serverError
        }
    }
}
