import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693 §2): an ID token or JWT of a trusted issuer
/// (``TrustedIssuer``) becomes a Limen grant, with an access token, an ID token and a refresh token, for the user the
/// external identity signs in as (``ExternalAccounts``).
///
/// - `subject_token`, `subject_token_type` (`…:token-type:id_token` or `…:token-type:jwt`): required; every way the
///   token can fail (type, issuer, signature, algorithm, key, claims, age, a second use) is the same `invalid_grant`,
///   and only the server's debug log says which. A subject token is exchanged once: it is remembered until it expires
///   (by its issuer and `jti`, or by its SHA-256 without a `jti`, ``ExchangedTokenStore``).
/// - `requested_token_type`: absent or `…:token-type:access_token`; `actor_token` (delegation) is not supported.
/// - `scope`: as at `/authorize` (known scopes, `openid` among them), `openid` when absent. The grant is not tied to
///   a browser session, so it is an `offline_access` grant whenever the client may use refresh tokens.
/// - `resource` or `audience` (RFC 8707; one value, one of the server's `resources`): named in the access token's `aud`.
package struct TokenExchangeGrant: Sendable {
    /// Makes the tokens.
    package let issuer: TokenIssuer
    /// Checks the external tokens.
    package let verifier: ExternalTokenVerifier
    /// Finds or makes the user.
    package let accounts: ExternalAccounts
    /// Where the exchanged tokens are remembered, so each is exchanged once.
    package let store: any ExchangedTokenStore
    /// Whether an unknown identity may make an account (``ServerConfiguration/signUpEnabled``).
    package let signUpEnabled: Bool
    /// Stamps the `user.signed_in` of each exchange.
    package let events: SecurityEventRecorder

    /// An exchange of the tokens `verifier` accepts, for users of `accounts` (made only when `signUpEnabled`), each
    /// token remembered in `store`, for tokens made by `issuer`.
    package init(
        issuer: TokenIssuer, verifier: ExternalTokenVerifier, accounts: ExternalAccounts,
        store: any ExchangedTokenStore, signUpEnabled: Bool, events: SecurityEventRecorder
    ) {
        (self.issuer, self.verifier, self.accounts) = (issuer, verifier, accounts)
        (self.store, self.signUpEnabled, self.events) = (store, signUpEnabled, events)
    }

    /// Exchanges the `subject_token` in the request's form for tokens of its client, bound to its DPoP proof's key if
    /// it has one.
    package func exchange(_ request: TokenRequest) async throws -> JSONValue {
        let (form, client, logger) = (request.form, request.client, request.logger)
        let subjectToken = try form.required("subject_token")
        let subjectTokenType = try form.required("subject_token_type")
        if form["actor_token"] != nil || form["actor_token_type"] != nil {
            throw TokenEndpointError.invalidRequest("actor_token (delegation) is not supported")
        }
        if let requested = form["requested_token_type"], requested != TokenExchangeRequest.TokenType.accessToken {
            throw TokenEndpointError.invalidRequest("requested_token_type must be an access token")
        }
        let resource = try target(in: form)
        let scope = try grantedScope(form["scope"], client: client)

        let identity: ExternalIdentity
        let claims: [String: JSONValue]
        do {
            (identity, claims) = try await verifier.verifyWithClaims(subjectToken, type: subjectTokenType)
        } catch .keysUnavailable(let issuer) {
            logger.warning(
                "A trusted issuer's signing keys could not be fetched",
                metadata: ["issuer": "\(issuer)", "client_id": "\(client.id)"])
            throw TokenEndpointError.serverError
        } catch {
            logger.debug("Token exchange refused", metadata: ["reason": "\(error.code)", "client_id": "\(client.id)"])
            throw TokenEndpointError.invalidGrant
        }
        guard try await recordFirstUse(of: subjectToken, claims: claims) else {
            logger.debug(
                "Token exchange refused", metadata: ["reason": "token_exchange.replayed", "client_id": "\(client.id)"])
            throw TokenEndpointError.invalidGrant
        }
        guard
            let user = try await accounts.user(for: identity, signUp: signUpEnabled, origin: request.origin)
        else {
            logger.debug(
                "Token exchange refused", metadata: ["reason": "sign_up_disabled", "client_id": "\(client.id)"])
            throw TokenEndpointError.invalidGrant
        }
        var tokens = try await issuer.issueNewGrant(
            user: user, client: client, scope: scope, authTime: identity.authTime, resource: resource,
            proofKey: request.proofKey, method: .tokenExchange, events: events, origin: request.origin)
        if case .object(var body) = tokens.body {
            body["issued_token_type"] = .string(TokenExchangeRequest.TokenType.accessToken)
            tokens.body = .object(body)
        }
        return tokens.body
    }

    /// Records the verified subject token `token` (with `claims`) as exchanged until it expires, by its issuer and
    /// `jti`, or by the token itself without a `jti`; `false` when it was exchanged before.
    private func recordFirstUse(of token: String, claims: [String: JSONValue]) async throws(StorageError) -> Bool {
        let name =
            if let issuer = claims["iss"]?.stringValue, let jti = claims["jti"]?.stringValue {
                "jti \(issuer)\n\(jti)"
            } else {
                "token \(token)"
            }
        let expiresAt = Date(timeIntervalSince1970: claims["exp"]?.numberValue ?? 0)
        return try await store.recordExchangedToken(
            tokenHash: RandomIdentifier.hash(name),
            expiresAt: expiresAt.addingTimeInterval(ExternalTokenVerifier.leeway),
            now: issuer.now())
    }

    /// The access token's extra audience: `resource` or `audience` (RFC 8693 §2.1 allows both; here they must agree).
    private func target(in form: FormFields) throws(TokenEndpointError) -> String? {
        let resource = try issuer.resource(in: form)
        guard let audience = form["audience"] else { return resource }
        if let problem = ResourceIndicator.problem(with: audience, allowed: issuer.resources) {
            throw .invalidTarget(problem)
        }
        if let resource, resource != audience { throw .invalidTarget("resource and audience name different APIs") }
        return audience
    }

    /// The requested scope as `/authorize` accepts it (`openid` when absent), with `offline_access` when the client
    /// may have refresh tokens and without it otherwise.
    private func grantedScope(_ requested: String?, client: ClientRecord) throws(TokenEndpointError) -> String {
        var scopes: [String]
        switch AuthorizationValidator.requestedScope(requested ?? "openid") {
        case .success(let accepted): scopes = accepted.split(separator: " ").map(String.init)
        case .failure(let refusal): throw .unknownScope(refusal.description)
        }
        scopes.removeAll { $0 == Scope.offlineAccess }
        if client.grantTypes.contains(.refreshToken) { scopes.append(Scope.offlineAccess) }
        return scopes.joined(separator: " ")
    }
}
