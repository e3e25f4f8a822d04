import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

extension TokenIssuer {
    /// Tokens of a new grant of `client` for `user` that began outside a browser (token exchange, Sign in with Apple):
    /// the grant is stored, lasting as long as its last token, with its refresh token if one was issued. `authTime` is
    /// when the user authenticated at the other issuer (never later than now); its `amr` is `fed`. `proofKey` binds the tokens to the key of
    /// the request's DPoP proof (``issue(grant:client:scope:nonce:user:resource:proofKey:)``). The sign-in is recorded as
    /// `user.signed_in` by `method`, stamped by `events` from `origin`, with the grant's insert. A disabled user gets
    /// `invalid_grant`, recorded as `user.sign_in_failed` (reason `disabled`).
    package func issueNewGrant(
        user: UserRecord,
        client: ClientRecord,
        scope: String,
        authTime: Date,
        resource: String? = nil,
        proofKey: String? = nil,
        method: SignInMethod,
        events: SecurityEventRecorder,
        origin: RequestOrigin
    ) async throws -> IssuedTokens {
        let now = self.now()
        var grant = GrantRecord(
            id: RandomToken.make(byteCount: 16), clientID: client.id, subject: user.id, scope: scope,
            authTime: min(authTime, now), nonce: nil, createdAt: now, expiresAt: now,
            methods: AuthenticationMethods([.federated])
        )
        let tokens = try await issue(
            grant: grant, client: client, scope: scope, nonce: nil, user: user, resource: resource, proofKey: proofKey)
        grant.expiresAt = tokens.lastExpiry
        grant.proofKey = tokens.refreshTokenKey
        let signedIn = SecurityEvent(.userSignedIn, user: user.id, client: client.id, details: .signIn(method: method))
        guard try await store.insertGrant(grant, recording: events.records([signedIn], from: origin)) else {
            let failed = SecurityEvent(
                .userSignInFailed, user: user.id, client: client.id, details: .signInFailed(reason: .disabled))
            try await store.insertSecurityEvents(events.records([failed], from: origin))
            throw TokenEndpointError.invalidGrant
        }
        if let refreshToken = tokens.refreshToken { try await store.insertRefreshToken(refreshToken) }
        return tokens
    }
}
