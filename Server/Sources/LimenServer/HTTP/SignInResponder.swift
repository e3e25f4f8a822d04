import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// Turns the steps of an authorization request into responses: the sign-in or consent page, or the redirect back to
/// the client. Shared by `/authorize` and the page routes.
struct SignInResponder: Sendable {
    /// The tables the browser's routes read and write directly: pending requests, sessions and their consent and
    /// grants, users and their identities, device codes and the throttle of their guesses, clients, flow interactions.
    typealias Storage = PendingAuthorizationStore & BrowserSessionStore & ConsentStore & GrantStore & UserStore
        & IdentityStore & DeviceAuthorizationStore & SignInThrottleStore & ClientStore & FlowInteractionStore

    /// Where requests, sessions and users are kept.
    let store: any Storage
    /// The issuer identifier (known once the port is bound when the configuration leaves it open).
    let issuer: IssuerBox
    /// The signing keys (ID-token hints and logout requests are checked against them).
    let keyRing: KeyRingBox
    /// Keys derived from the master key (CSRF tokens, device user codes, the guess throttle).
    let derivedKeys: DerivedKeys
    /// The current time.
    let now: @Sendable () -> Date
    /// The flows the pages run.
    let engine: FlowEngine
    /// The upstream OpenID providers of the hosted pages.
    let upstreamProviders: UpstreamProviders
    /// Password checks (the account page's deletion asks for the password).
    let passwordSignIn: PasswordSignIn
    /// Deletes accounts (the account page).
    let accountRemoval: AccountRemoval
    /// Whether the pages may make accounts (``ServerConfiguration/signUpEnabled``).
    let signUpEnabled: Bool
    /// The proxies whose `X-Forwarded-For` is believed.
    let trustedProxies: TrustedProxies
    /// The resource indicators a request may name.
    let resources: [String]
    /// How many wrong device codes a browser may type (``ServerConfiguration/signInLockout``).
    let signInLockout: SignInLockout
    /// How many digits an email code has.
    let emailCodeLength: Int
    private let logger = Logger(label: "limen.sign-in")

    /// Wires the browser's routes over `provider`'s services.
    init(composition: ServerComposition) {
        store = composition.store
        issuer = composition.issuer
        keyRing = composition.keyRing
        derivedKeys = composition.derivedKeys
        now = composition.now
        engine = composition.flowEngine
        upstreamProviders = composition.upstreamProviders
        passwordSignIn = composition.passwordSignIn
        accountRemoval = composition.accountRemoval
        signUpEnabled = composition.configuration.signUpEnabled
        trustedProxies = composition.configuration.trustedProxies
        resources = composition.configuration.resources
        signInLockout = composition.configuration.signInLockout
        emailCodeLength = composition.configuration.emailCodeLength
    }

    /// Decides and completes requests.
    var flow: AuthorizationFlow { AuthorizationFlow(store: store, issuer: issuer, now: now) }
    /// Browser sessions.
    var sessions: BrowserSessions { BrowserSessions(store: store, now: now) }
    /// The cookies, `Secure` when the issuer is HTTPS (known once the port is bound).
    var cookies: BrowserCookies { BrowserCookies(issuer: issuer.current) }
    /// The current signing keys.
    var keys: KeyRing { keyRing.current }
    /// The flows offered.
    var flows: FlowCatalog { engine.catalog }

    /// The renderer of the flow pages of `pending` in `browser`, whose forms carry the request's CSRF token.
    func flowRenderer(pending: PendingAuthorization, browser: BrowserState) -> FlowPageRenderer {
        FlowPageRenderer(
            pending: pending, csrf: browser.csrfToken(for: CSRFToken.signInPurpose(requestID: pending.id)),
            catalog: flows, signUpEnabled: signUpEnabled)
    }

    /// The page of flow `name` for `pending`: the node its interaction stands on (the flow's start when new).
    func flowPage(_ name: String, pending: PendingAuthorization, browser: BrowserState) async throws(StorageError)
        -> Response
    {
        guard let flow = flows.page(name) else { return Pages.pageNotFound() }
        guard signUpEnabled || !flow.createsAccounts else { return Pages.signUpOff() }
        let interaction = try await engine.pageInteraction(
            for: pending, flow: flow, guest: try await signedInGuest(browser))
        return flowRenderer(pending: pending, browser: browser).render(try await engine.preparedPageAnswer(interaction))
    }

    /// The guest the browser is signed in as (an anonymous user's session), whom the pages' flows upgrade; `nil` for
    /// a browser without a session or signed in with an identity (who may sign in as someone else as before).
    func signedInGuest(_ browser: BrowserState) async throws(StorageError) -> String? {
        guard let session = try await sessions.current(cookieValue: browser.sessionCookie),
            let user = try await store.user(id: session.subject), user.isAnonymous
        else { return nil }
        return user.id
    }

    /// After a flow of the pages (or an upstream provider) identified `subject` by `methods`: a new browser session
    /// (whatever the browser had) and the request's next step, the consent page or the redirect; `root` leads back to
    /// the issuer's root from the page answering (see ``Pages/consent(_:csrf:account:root:)``).
    func signedIn(
        subject: String,
        methods: AuthenticationMethods,
        pending: PendingAuthorization,
        browser: BrowserState,
        root: String = ""
    ) async throws(StorageError) -> Response {
        let (cookieValue, session) = try await sessions.restart(
            replacing: browser.sessionCookie, subject: subject, methods: methods)
        let step = try await flow.step(for: pending, session: session, freshSignIn: true)
        if case .consent = step {
            // The consent page comes next: remember that this session's sign-in was made for this request, so
            // `/consent` finds a forced sign-in done by it (and by no other session).
            try await store.recordPendingAuthorizationSignIn(
                idHash: pending.record.idHash, sessionHash: session.idHash, now: now())
        }
        var response = try await respond(to: step, pending: pending, browser: browser, stored: true, root: root)
        response.setCookie(cookies.session(cookieValue))
        return response
    }

    /// The sign-in of `subject`, whom `methods` authenticated outside the pages' flows (an upstream provider, or the
    /// browser session a request asks more of) by `method`: signed in at once when nothing more is needed (recorded as
    /// `user.signed_in` from `origin`; nothing is recorded without one, when nobody authenticated now: a session's
    /// step-up), else the sign-in page at the second step the user's two-step sign-in or the request's level needs,
    /// else the error back to the client.
    func signIn(
        subject: String,
        methods: AuthenticationMethods,
        method: SignInMethod?,
        pending: PendingAuthorization,
        browser: BrowserState,
        root: String,
        origin: RequestOrigin?
    ) async throws(StorageError) -> Response {
        switch try await engine.pageSignIn(for: pending, subject: subject, methods: methods, method: method) {
        case .completed(let interaction, let context):
            guard try await engine.finishPage(interaction, context: context, origin: origin) else {
                return Pages.requestGone(uiLocales: pending.record.uiLocales)
            }
            return try await signedIn(
                subject: subject, methods: context.methods, pending: pending, browser: browser, root: root)
        case .answer(let answer):
            guard case .failure(let code, let message) = answer.node else {
                return Responses.redirect(
                    to: root + FlowPageRoutes.link(to: FlowCatalog.signInFlow, requestID: pending.id))
            }
            return try await respond(
                to: .complete(.error(code, description: message)), pending: pending, browser: browser, stored: true)
        }
    }

    /// Answers an accepted `/authorize` request: at once when no page is needed (single sign-on, `prompt=none`),
    /// otherwise with a page for the request, now stored as pending — or, when the person must sign in and
    /// `providerHint` (`idp_hint`) names a configured upstream provider, with the redirect to that provider.
    func begin(
        _ accepted: AuthorizationValidator.Accepted,
        providerHint: String? = nil,
        request: Request
    ) async -> Response {
        await page(for: request) { browser throws(StorageError) in
            var hintedSubject: String?
            if let hint = accepted.idTokenHint {
                hintedSubject = try await IDTokenHint.verify(
                    hint, keys: keys, issuer: issuer.current, clients: store,
                    now: now()
                )?.subject
                guard hintedSubject != nil else {
                    return Responses.redirect(
                        to: AuthorizationValidator.errorRedirect(
                            redirectURI: accepted.redirectURI,
                            error: "invalid_request",
                            description: "id_token_hint is not an ID token issued by this provider",
                            state: accepted.state,
                            issuer: issuer.current
                        )
                    )
                }
            }
            let pending = PendingAuthorization(
                accepted: accepted, hintedSubject: hintedSubject, browserBinding: browser.requestBinding,
                now: now())
            let session = try await sessions.current(cookieValue: browser.sessionCookie)
            let step = try await flow.step(for: pending, session: session)
            if step == .signIn, let client = upstreamProviders[providerHint] {
                try await store.insertPendingAuthorization(pending.record)
                return try await redirectUpstream(client, pending: pending)
            }
            return try await respond(to: step, pending: pending, browser: browser, stored: false)
        }
    }

    /// The response for `step`. A page stores the request first unless it is `stored` already; a completion consumes
    /// the stored request and redirects to the client (or, for a device authorization, records the decision). `root`
    /// leads back to the issuer's root for the consent page.
    func respond(
        to step: AuthorizationFlow.Step,
        pending: PendingAuthorization,
        browser: BrowserState,
        stored: Bool,
        root: String = ""
    ) async throws(StorageError) -> Response {
        switch step {
        case .signIn:
            if !stored { try await store.insertPendingAuthorization(pending.record) }
            return try await flowPage(FlowCatalog.signInFlow, pending: pending, browser: browser)
        case .stepUp(let session):
            if !stored { try await store.insertPendingAuthorization(pending.record) }
            // The session's sign-in was recorded when it happened: a step-up finishing at once records none.
            return try await signIn(
                subject: session.subject, methods: session.methods, method: nil, pending: pending, browser: browser,
                root: root, origin: nil)
        case .consent(let subject):
            if !stored { try await store.insertPendingAuthorization(pending.record) }
            let csrf = browser.csrfToken(for: CSRFToken.consentPurpose(requestID: pending.id, subject: subject))
            let account = try await store.user(id: subject)?.email
            return Pages.consent(pending, csrf: csrf, account: account, root: root)
        case .complete(let completion) where pending.isDeviceRequest:
            return try await DeviceVerification(store: store, now: now)
                .complete(pending, with: completion).page(for: pending)
        case .complete(let completion):
            guard let location = try await flow.complete(pending, with: completion, stored: stored) else {
                return Pages.requestGone(uiLocales: pending.record.uiLocales)
            }
            return Responses.redirect(to: location)
        }
    }

    /// Runs a page handler for a browser: reads its cookies, answers a storage failure with an error page, and sets
    /// the CSRF cookie when the browser had none.
    func page(
        for request: Request,
        _ body: (BrowserState) async throws(StorageError) -> Response
    ) async -> Response {
        let browser = BrowserState(request: request, cookies: cookies, keys: derivedKeys)
        var response: Response
        do {
            response = try await body(browser)
        } catch {
            logger.error("Sign-in storage failure", metadata: ["error": "\(error.code)"])
            response = Pages.storageFailure(error)
        }
        browser.finish(&response, cookies: cookies)
        return response
    }

    /// Runs a form handler: reads the form body (a refusal page for another media type, an oversized body or, unless
    /// `allowingRepeats` for a form with multiple choices, a repeated field), then as ``page(for:_:)``.
    func form(
        for request: Request,
        allowingRepeats: Bool = false,
        _ body: (BrowserState, FormFields) async throws(StorageError) -> Response
    ) async -> Response {
        await page(for: request, reading: await FormFields.read(from: request, allowingRepeats: allowingRepeats), body)
    }

    /// Runs a page handler that reads the URL query: a refusal page for a repeated field, otherwise as
    /// ``page(for:_:)``.
    func query(
        for request: Request,
        _ body: (BrowserState, FormFields) async throws(StorageError) -> Response
    ) async -> Response {
        await page(for: request, reading: FormFields.query(of: request), body)
    }

    private func page(
        for request: Request,
        reading fields: Result<FormFields, FormRefusal>,
        _ body: (BrowserState, FormFields) async throws(StorageError) -> Response
    ) async -> Response {
        switch fields {
        case .success(let fields):
            return await page(for: request) { browser throws(StorageError) in try await body(browser, fields) }
        case .failure(let refusal):
            return Pages.message(title: "Request refused", message: refusal.description, status: refusal.status)
        }
    }

    /// Ends the browser's session (its row deleted, its cookie cleared) and answers with `response`. Shared by
    /// `/logout` and `/end_session`.
    func signOut(_ browser: BrowserState, answering response: Response, origin: RequestOrigin)
        async throws(StorageError) -> Response
    {
        try await sessions.signOut(
            cookieValue: browser.sessionCookie, events: engine.services.accounts.events, origin: origin)
        var response = response
        response.setCookie(cookies.clearedSession())
        return response
    }

    /// A pending request as a page finds it.
    enum PendingLookup: Sendable {
        /// The request is waiting, and was started in this browser.
        case found(PendingAuthorization)
        /// The page to show instead: the request expired or is unknown, or another browser started it.
        case refused(Response)
    }

    /// The pending request named by a form or query, if it is still waiting and was started in `browser`: a request
    /// id opened in another browser (a victim sent a link to an attacker's request) is refused with a page saying so,
    /// and logged through `logger` (the request's, with its request id).
    func pending(id: String?, browser: BrowserState, logger: Logger) async throws(StorageError) -> PendingLookup {
        guard let pending = try await PendingAuthorization.load(id: id, store: store, now: now())
        else { return .refused(Pages.requestExpired()) }
        guard pending.isBound(to: browser.requestBinding) else {
            logger.notice("A pending sign-in request was opened in another browser; refused")
            return .refused(Pages.requestFromAnotherBrowser(uiLocales: pending.record.uiLocales))
        }
        return .found(pending)
    }
}
