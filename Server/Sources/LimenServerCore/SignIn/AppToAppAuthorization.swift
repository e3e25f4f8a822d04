import Crypto
import Foundation
import LimenServerStorage
import LimenServerWire

/// Sign-in through the provider's own installed app (app-to-app, after OpenID's FAPI 2.0 app-to-app guidance): the
/// requesting app's authorization request opens the host app as a universal link; the host app, signed in, asks
/// ``begin(token:request:)`` who asks and for what, shows it, and sends the person's decision to
/// ``decide(token:approval:decision:)``, which answers the redirect back to the requesting app with an ordinary
/// authorization code for the requesting client and the host's user.
///
/// The request is checked exactly as `/authorize` checks it (``AuthorizationValidator``); the host is a bearer token of
/// a client registered as ``ClientRecord/isAppToAppHost``, granting `openid`, minted for this provider alone, of a
/// user with an identity. An approval is the identifier of a pending request kept ``approvalLifetime`` seconds, bound
/// to the host's user, and completed once.
package struct AppToAppAuthorization: Sendable {
    /// How long the host app has to decide.
    package static let approvalLifetime: TimeInterval = 300

    /// What the host app shows before the person decides.
    package struct Request: Sendable, Equatable {
        /// The requesting client.
        package var client: ClientRecord
        /// The requested scopes.
        package var scopes: [String]
        /// Whether the person must allow the client these scopes (a third-party client not allowed them before).
        package var consentRequired: Bool
        /// The opaque value that names this request to ``AppToAppAuthorization/decide(token:approval:decision:)``.
        package var approval: String
    }

    /// The person's answer.
    package enum Decision: String, Sendable, CaseIterable {
        /// Sign the requesting app in.
        case approve
        /// Refuse: the requesting app gets `access_denied`.
        case deny
    }

    /// Checks the host's bearer token.
    package let verifier: AccessTokenVerifier
    /// Checks the authorization request.
    package let validator: AuthorizationValidator
    /// Decides consent and issues the code.
    package let flow: AuthorizationFlow
    /// The client records, served for a few seconds.
    package let clients: ClientCache
    /// The keys an `id_token_hint` is verified with.
    package let keys: KeyRingBox
    /// Where the clients, users and pending requests are kept.
    package let store: any ClientStore & UserStore & PendingAuthorizationStore

    /// Makes it of its parts.
    package init(
        verifier: AccessTokenVerifier, validator: AuthorizationValidator, flow: AuthorizationFlow, clients: ClientCache,
        keys: KeyRingBox, store: any ClientStore & UserStore & PendingAuthorizationStore
    ) {
        (self.verifier, self.validator, self.flow, self.clients) = (verifier, validator, flow, clients)
        (self.keys, self.store) = (keys, store)
    }

    /// Checks the host and the requesting app's authorization request (`query`, the query of the `/authorize` URL the
    /// host app was opened with) and keeps it for the decision.
    package func begin(
        token: PresentedAccessToken?,
        request query: String
    ) async throws(StorageError) -> Result<Request, AppToAppRefusal> {
        let host: Host
        switch try await signedInHost(token: token) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): host = found
        }
        guard let parameters = try? FormFields.parse(query, allowingRepeats: true) else {
            return .failure(.invalidRequest("invalid_request", "the request is not a valid query", redirect: nil))
        }
        let accepted: AuthorizationValidator.Accepted
        switch try await validator.validate(parameters) {
        case .accepted(let request): accepted = request
        case .errorPage(let error, let description):
            return .failure(.invalidRequest(error, description, redirect: nil))
        case .redirectError(let redirectURI, let error, let description, let state):
            return .failure(
                .invalidRequest(
                    error, description,
                    redirect: AuthorizationValidator.errorRedirect(
                        redirectURI: redirectURI, error: error, description: description, state: state,
                        issuer: flow.issuer.current)))
        }
        guard URLComponents(string: accepted.redirectURI)?.scheme?.lowercased() != "http" else {
            return .failure(
                .invalidRequest(
                    "invalid_request",
                    "an app-to-app redirect is an https universal link or the app's own scheme, not a loopback address",
                    redirect: nil))
        }
        var hintedSubject: String?
        if let hint = accepted.idTokenHint {
            hintedSubject = try await IDTokenHint.verify(
                hint, keys: keys.current, issuer: flow.issuer.current, clients: store, now: flow.now())?.subject
            guard hintedSubject != nil else {
                return .failure(
                    refusal(
                        accepted, "invalid_request", "id_token_hint is not an ID token issued by this provider"))
            }
        }
        let pending = PendingAuthorization(
            accepted: accepted, hintedSubject: hintedSubject, browserBinding: Self.binding(of: host.subject),
            now: flow.now(), lifetime: Self.approvalLifetime)
        if needsSignIn(pending, host: host) { return .failure(.loginRequired) }
        let consentRequired = try await flow.needsConsent(pending, subject: host.subject)
        if consentRequired, pending.prompt.contains(.none) {
            return .failure(refusal(accepted, "consent_required", "the user has not allowed this client"))
        }
        try await store.insertPendingAuthorization(pending.record)
        return .success(
            Request(
                client: accepted.client, scopes: pending.scopes, consentRequired: consentRequired,
                approval: pending.id))
    }

    /// Completes the request kept under `approval` with the host user's `decision`: the redirect to the requesting
    /// app, with a code (approve) or `access_denied` (deny). Approving records the consent.
    package func decide(
        token: PresentedAccessToken?,
        approval: String,
        decision: Decision
    ) async throws(StorageError) -> Result<String, AppToAppRefusal> {
        let host: Host
        switch try await signedInHost(token: token) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): host = found
        }
        guard
            let pending = try await PendingAuthorization.load(id: approval, store: store, now: flow.now()),
            !pending.isDeviceRequest, pending.isBound(to: Self.binding(of: host.subject))
        else { return .failure(.unknownApproval) }
        let completion: AuthorizationFlow.Completion
        switch decision {
        case .deny:
            completion = .error("access_denied", description: "the user denied the request")
        case .approve:
            if needsSignIn(pending, host: host) { return .failure(.loginRequired) }
            if try await flow.needsConsent(pending, subject: host.subject) {
                try await flow.recordConsent(for: pending, subject: host.subject)
            }
            completion = .appCode(subject: host.subject, authTime: host.authTime, methods: host.methods)
        }
        guard let redirect = try await flow.complete(pending, with: completion, stored: true) else {
            return .failure(.unknownApproval)
        }
        return .success(redirect)
    }

    /// Whether the host's sign-in does not do for `pending` (``AuthorizationFlow/needsSignIn(_:subject:authTime:)``),
    /// or falls below its level (``PendingAuthorization/requiredLevel``).
    private func needsSignIn(_ pending: PendingAuthorization, host: Host) -> Bool {
        flow.needsSignIn(pending, subject: host.subject, authTime: host.authTime)
            || AuthenticationLevel(host.methods) < pending.requiredLevel ?? .none
    }

    /// The host's user, as its bearer token shows it.
    private struct Host {
        var subject: String
        var authTime: Date
        var methods: AuthenticationMethods
    }

    /// The user of a bearer token that may approve: see the type's documentation.
    private func signedInHost(
        token: PresentedAccessToken?
    ) async throws(StorageError) -> Result<Host, AppToAppRefusal> {
        let claims: AccessTokenClaims
        switch try await verifier.authorizeForIssuer(token, issuer: flow.issuer.current) {
        case .failure(.challenge(.missingToken)): return .failure(.missingToken)
        case .failure(.challenge(.insufficientScope)): return .failure(.insufficientScope)
        case .failure(.challenge(let challenge)) where challenge.isAboutProof: return .failure(.proof(challenge))
        case .failure: return .failure(.invalidToken)
        case .success(let verified): claims = verified
        }
        guard let client = try await clients.client(id: claims.clientID, in: store), client.isAppToAppHost else {
            return .failure(.notAppToAppHost)
        }
        guard let user = try await store.user(id: claims.subject) else { return .failure(.invalidToken) }
        guard !user.isAnonymous, let authTime = claims.authTime else { return .failure(.loginRequired) }
        return .success(Host(subject: user.id, authTime: authTime, methods: claims.methods))
    }

    /// A refusal that the requesting app also gets at its redirect URI.
    private func refusal(
        _ accepted: AuthorizationValidator.Accepted, _ error: String, _ description: String
    ) -> AppToAppRefusal {
        .invalidRequest(
            error, description,
            redirect: AuthorizationValidator.errorRedirect(
                redirectURI: accepted.redirectURI, error: error, description: description, state: accepted.state,
                issuer: flow.issuer.current))
    }

    /// What binds a pending request to the host's user: only that user's token decides it.
    private static func binding(of subject: String) -> Data {
        Data(SHA256.hash(data: Data("limen.app2app:\(subject)".utf8)))
    }
}

/// Why app-to-app sign-in refused the host app. Each case has a stable OAuth `code`.
package enum AppToAppRefusal: Error, Sendable, Equatable {
    /// No bearer token was sent.
    case missingToken
    /// The token is malformed, expired, revoked, not this provider's, minted for an API, or its user is gone.
    case invalidToken
    /// The token does not grant `openid`.
    case insufficientScope
    /// The token's client is not registered as an app-to-app host.
    case notAppToAppHost
    /// The host must sign the person in again (its own sign-in) and try again: `prompt=login`, an exceeded `max_age`,
    /// an `id_token_hint` naming someone else, or a guest.
    case loginRequired
    /// The authorization request is refused (`error`, as `/authorize` would); `redirect`, when the requesting client's
    /// redirect URI was established, carries the error back to the requesting app.
    case invalidRequest(String, String, redirect: String?)
    /// The approval is unknown, expired, used, or another user's.
    case unknownApproval
    /// The token's DPoP binding was not honoured (RFC 9449 §7): a bound token as `Bearer`, an unbound one as `DPoP`,
    /// or a proof that fails (``DPoPRefusal``); answered with the resources' `DPoP` challenge.
    case proof(BearerChallenge)

    /// The OAuth error code.
    package var code: String {
        switch self {
        case .missingToken, .invalidToken: "invalid_token"
        case .insufficientScope: "insufficient_scope"
        case .notAppToAppHost: "unauthorized_client"
        case .loginRequired: "login_required"
        case .invalidRequest(let error, _, _): error
        case .unknownApproval: "invalid_grant"
        case .proof(.dpop(let refusal)): refusal.code
        case .proof: "invalid_token"
        }
    }

    /// A sentence for the developer.
    package var message: String {
        switch self {
        case .missingToken: "An access token of the host app is required."
        case .invalidToken: "The access token is not valid: sign in again."
        case .insufficientScope: "The access token does not grant openid."
        case .notAppToAppHost: "The access token's client is not registered as an app-to-app host."
        case .loginRequired: "The request needs a fresh sign-in: sign in in the host app, then try again."
        case .invalidRequest(_, let description, _): description
        case .unknownApproval: "The approval is unknown, expired, already used, or another user's."
        case .proof(.dpop(let refusal)): refusal.message
        case .proof: "The access token is DPoP-bound: send it with the DPoP scheme and a proof, and only such a token."
        }
    }
}
