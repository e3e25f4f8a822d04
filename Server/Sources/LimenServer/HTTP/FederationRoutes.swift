import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

/// The hosted pages' sign-in through an upstream OpenID provider (``IdentityProvider``), for a pending authorization
/// request:
///
/// - `POST /federation/{id}/start` — the "Continue with …" button of the sign-in page (form fields `request` and
///   `csrf`, the page's CSRF token): redirects to the provider (``UpstreamSignIn/begin(_:pending:issuer:)``).
///   `/authorize?idp_hint={id}` goes there at once, without the page.
/// - `GET /federation/{id}/callback` — where the provider sends the browser back: the attempt its `state` names (in
///   this browser, for this provider, unexpired, used once), the code redeemed and the ID token validated, then the
///   identity resolved to a Limen user (``ExternalAccounts``; a guest signed in in this browser upgrades through
///   ``AccountLinking``'s cases; with sign-up turned off only an identity that leads to an account signs in), and the
///   request continues as after a password: consent or the redirect with a code.
///
/// The callback of a sign-in that a native flow's `IDP` collector started goes back to the app instead
/// (``FlowFederationStep``).
///
/// Both answer `404` for a provider that is not configured.
enum FederationRoutes {
    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        router.post("/federation/:provider/start") { request, context in
            let client = responder.upstreamProviders[
                try context.parameters.path(UpstreamProviderID.self).rawValue]
            return await responder.form(for: request) { browser, form throws(StorageError) in
                guard let client else { return Pages.pageNotFound() }
                let pending: PendingAuthorization
                switch try await responder.pending(id: form["request"], browser: browser, logger: context.logger) {
                case .found(let found): pending = found
                case .refused(let page): return page
                }
                let purpose = CSRFToken.signInPurpose(requestID: pending.id)
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else {
                    return Pages.forbidden()
                }
                return try await responder.redirectUpstream(client, pending: pending)
            }
        }
        router.get("/federation/:provider/callback") { request, context in
            let client = responder.upstreamProviders[
                try context.parameters.path(UpstreamProviderID.self).rawValue]
            return await responder.query(for: request) { browser, query throws(StorageError) in
                guard let client else { return Pages.pageNotFound() }
                let origin = RequestOrigin(
                    request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
                return try await callback(
                    client, query: query, rawQuery: request.uri.query ?? "", browser: browser, responder: responder,
                    origin: origin, logger: context.logger)
            }
        }
    }

    private static func callback(
        _ client: UpstreamClient,
        query: FormFields,
        rawQuery: String,
        browser: BrowserState,
        responder: SignInResponder,
        origin: RequestOrigin,
        logger: Logger
    ) async throws(StorageError) -> Response {
        guard let state = query["state"], let stored = try await responder.upstream.attempt(client, state: state),
            let target = stored.attempt.target
        else {
            return responder.upstreamFailure(.unknownAttempt, client: client, pending: nil, logger: logger)
        }
        let requestID: String
        switch target {
        case .request(let id): requestID = id
        case .interaction(let id, let action):
            let step = FlowFederationStep(engine: responder.engine.logging(to: logger))
            switch try await step.returned(
                client, query: rawQuery, state: state, attempt: stored, interactionID: id, action: action)
            {
            case .back(let location, let failure):
                failure?.log(provider: client.provider, to: logger)
                return Responses.redirect(to: location)
            case .lost:
                return responder.upstreamFailure(.unknownAttempt, client: client, pending: nil, logger: logger)
            }
        }
        let pending: PendingAuthorization
        switch try await responder.pending(id: requestID, browser: browser, logger: logger) {
        case .found(let found): pending = found
        case .refused(let page): return page
        }
        let identity: ExternalIdentity
        do {
            identity = try await responder.upstream.finish(
                client, query: rawQuery, issuer: responder.issuer.current, state: state, attempt: stored,
                maxAge: pending.isReauthentication ? UpstreamSignIn.freshSignIn : nil)
        } catch .storage(let error) {
            throw error
        } catch {
            return responder.upstreamFailure(error, client: client, pending: pending, logger: logger)
        }
        let accounts = ExternalAccounts(
            store: responder.store, events: responder.engine.services.accounts.events, now: responder.now)
        if pending.isReauthentication {
            // Only the identity already linked to the account being changed, never a new link or account.
            let holder = try await accounts.holder(of: identity)
            return try await AccountReauthentication.finish(
                subject: holder?.linked == true ? holder?.user.id : nil, methods: AuthenticationMethods([.federated]),
                pending: pending, browser: browser, responder: responder, root: "../..")
        }
        let user: UserRecord
        if responder.signUpEnabled {
            let guest = try await responder.signedInGuest(browser)
            user = try await accounts.user(for: identity, guest: guest, origin: origin)
            if let guest, user.id != guest {
                // AccountLinking's case 2 in the person's own browser: the account the identity belongs to replaces
                // the guest, whose data is merged into it.
                var context = FlowContext(subject: user.id)
                context.replacedGuest = guest
                try await AccountLinking(services: responder.engine.services).replaceGuest(
                    in: context, request: FlowRequest(hostedPageFor: pending, guest: guest), origin: origin)
            }
        } else {
            // Only administrators make accounts: an identity that leads to nobody (nor upgrades a guest) is refused.
            guard let existing = try await accounts.existingUser(for: identity, origin: origin) else {
                return Pages.signUpOff()
            }
            user = existing
        }
        // The page answering is two levels below the issuer's root.
        return try await responder.signIn(
            subject: user.id, methods: AuthenticationMethods([.federated]),
            method: .oidc(issuer: client.provider.issuer), pending: pending, browser: browser, root: "../../",
            origin: origin)
    }
}
