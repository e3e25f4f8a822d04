import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The admin console: hosted pages under `/admin/console` over the browser session, for a user holding the admin role
/// whose sign-in used a second factor and is fresh (``AdminConsoleGate``); never a bearer token in the page. The JSON
/// admin API keeps every path it has (no console path is one of its). `GET /admin` sends a browser (`Accept` naming
/// `text/html`) to the console; anyone else gets the `404` it always had.
///
/// - `/admin/console`: the home page.
/// - `/admin/console/sign-in`: a fresh sign-in on the hosted pages, back to the console (``AccountReauthentication``).
/// - `/admin/console/clients`: the clients, and a form (`POST`) registering one, whose secret is shown once
///   (``AdminClients``, as the admin API's).
/// - `/admin/console/client?id=`: a client's settings, branding and secret, each changed by a form
///   (``addClientPages(to:responder:gate:clients:)``).
/// - `/admin/console/users?q=`: a user found by email or subject, with their identities and latest events, and a form
///   (`POST /admin/console/users/delete`) deleting them (``AccountRemoval``, as the admin API's), and forms
///   (`/users/disable`, `/users/enable`) disabling and enabling them (``AdminUserDisablement``, as the admin API's);
///   their live sessions, and a form (`/users/revoke-sessions`) signing them out everywhere (``AdminUserSessions``).
/// - `/admin/console/events`: the security events, filtered by type, user, client and time (``AdminEventQuery``).
/// - `/admin/console/keys`: the signing keys, and a form rotating them (``addKeyPages(to:responder:gate:keys:)``).
/// - `/admin/console/webhooks`, `/admin/console/webhook?id=`: the event webhooks, registered, their secrets rotated,
///   deleted, and their deliveries sent again (``addWebhookPages(to:responder:gate:webhooks:schedule:)``).
/// - `/admin/console/flows`, `/admin/console/schema`: what is configured, read-only
///   (``addConfigurationPages(to:responder:gate:flows:profiles:)``).
///
/// A stale sign-in is sent to sign in again, as on `/account`, and comes back. Every form is CSRF-checked (bound to
/// the session), and every change is recorded with the admin as its actor (``SecurityEventActor/admin(_:)``).
enum AdminConsoleRoutes {
    /// The console's path.
    static let path = "/admin/console"

    /// Adds the routes, answering through `responder`'s browser state and asking `gate`; clients are changed through
    /// `clients`, users deleted through `removal`, disabled through `disablement` and signed out everywhere through
    /// `sessions`, roles read through `roles`, the events read from `store`, the signing keys listed and rotated
    /// through `keys`, the webhooks changed through `webhooks` (retried on `retries`), and the `flows` and the profile
    /// schema (of `profiles`) shown.
    static func add(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        clients: AdminClients, removal: AccountRemoval, disablement: AdminUserDisablement, roles: AdminRoles,
        sessions: AdminUserSessions, events store: any SecurityEventStore, keys: AdminKeys, webhooks: Webhooks,
        retries: WebhookRetrySchedule, flows: FlowCatalog, profiles: ProfileService
    ) {
        let reading = ConsoleUserReading(
            responder: responder, roles: roles, disablement: disablement, sessions: sessions, events: store)
        router.get("/admin") { request, _ in
            request.acceptsHTML ? Responses.redirect(to: "admin/console") : Response(status: .notFound)
        }
        router.get(RouterPath(path)) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../") { admin throws(StorageError) in
                    Pages.consoleHome(email: admin.email ?? admin.id, root: "../")
                }
            }
        }
        router.get(RouterPath(path + "/sign-in")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await AccountReauthentication.begin(
                    for: nil, email: nil, returnTo: path, browser: browser, responder: responder, root: "../../")
            }
        }
        router.get(RouterPath(path + "/clients")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    Pages.consoleClients(
                        email: admin.email ?? admin.id, root: "../../", clients: try await clients.list(),
                        csrf: csrf(browser))
                }
            }
        }
        addForm("/clients", root: "../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            try await register(submitted, clients: clients)
        }
        router.get(RouterPath(path + "/users")) { request, _ in
            await responder.query(for: request) { browser, fields throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    try await user(fields["q"], admin: admin, root: "../../", csrf: csrf(browser), reading: reading)
                }
            }
        }
        addClientPages(to: router, responder: responder, gate: gate, clients: clients)
        addKeyPages(to: router, responder: responder, gate: gate, keys: keys)
        addWebhookPages(to: router, responder: responder, gate: gate, webhooks: webhooks, schedule: retries)
        addConfigurationPages(to: router, responder: responder, gate: gate, flows: flows, profiles: profiles)
        addForm("/users/delete", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            try await deleteUser(submitted, removal: removal)
        }
        addDisablementForms(to: router, responder: responder, gate: gate, reading: reading)
        addSessionsForm(to: router, responder: responder, gate: gate, reading: reading)
        router.get(RouterPath(path + "/events")) { request, _ in
            await responder.query(for: request) { browser, fields throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    try await events(fields.withoutEmptyValues, admin: admin, store: store)
                }
            }
        }
    }

    /// Adds the console form `POST` at `subpath` of the console, whose answer `root` leads from to the issuer's root:
    /// for the admin ``AdminConsoleGate`` allows, once the form's CSRF token (bound to the session) is checked, `change`
    /// answers the ``ConsoleFormSubmission``.
    static func addForm(
        _ subpath: String, root: String, to router: Router<some RemoteAddressRequestContext>,
        responder: SignInResponder, gate: AdminConsoleGate,
        _ change: @escaping @Sendable (ConsoleFormSubmission) async throws(StorageError) -> Response
    ) {
        router.post(RouterPath(path + subpath)) { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            let logger = context.logger
            return await responder.form(for: request) { browser, form throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: root) {
                    admin throws(StorageError) in
                    guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: csrfPurpose(browser)) else {
                        return Pages.forbidden()
                    }
                    var acting = origin
                    acting.actor = .admin(admin.id)
                    return try await change(
                        ConsoleFormSubmission(
                            admin: admin, form: form, origin: acting, csrf: csrf(browser), logger: logger))
                }
            }
        }
    }

    /// Deletes the user the submitted form names (`id`), by its admin: the users page saying so.
    private static func deleteUser(
        _ submitted: ConsoleFormSubmission, removal: AccountRemoval
    ) async throws(StorageError) -> Response {
        let id = submitted.form["id"] ?? ""
        let deleted = try await removal.deleteAccount(
            userID: id, logger: submitted.logger, origin: submitted.origin)
        if deleted {
            submitted.logger.notice("An admin deleted a user in the console", metadata: ["sub": "\(id)"])
        }
        return Pages.consoleUsers(
            email: submitted.email, root: "../../../", query: "", found: nil, identities: [], events: [],
            csrf: submitted.csrf, message: deleted ? "The user is deleted." : "No such user.",
            status: deleted ? .ok : .notFound)
    }

    /// Registers the client the submitted form asks for, by its admin: the clients page with the new client's secret
    /// shown once, or with why it was refused.
    private static func register(
        _ submitted: ConsoleFormSubmission, clients: AdminClients
    ) async throws(StorageError) -> Response {
        let form = submitted.form
        let request = AdminClientRequest(
            clientID: form["client_id"] ?? "", clientName: form["client_name"], kind: form["kind"],
            redirectURIs: lines(form["redirect_uris"]))
        let (email, csrf) = (submitted.email, submitted.csrf)
        return try await outcome { () throws(AdminError) in
            try await clients.register(request, origin: submitted.origin)
        } page: { result throws(StorageError) in
            switch result {
            case .success(let created):
                return Pages.consoleClients(
                    email: email, root: "../../", clients: try await clients.list(), csrf: csrf, created: created)
            case .failure(let error):
                return Pages.consoleClients(
                    email: email, root: "../../", clients: try await clients.list(), csrf: csrf,
                    error: error.errorDescription ?? error.code, status: error.status)
            }
        }
    }

    /// The users page for `admin` (`root` leading from it to the issuer's root): the user whose email or subject is
    /// `query`, if any, read through `reading`, with `message` when a change was made.
    static func user(
        _ query: String?, admin: UserRecord, root: String, csrf: String, reading: ConsoleUserReading,
        message: String? = nil
    ) async throws(StorageError) -> Response {
        let email = admin.email ?? admin.id
        let store = reading.responder.store
        guard let query else {
            return Pages.consoleUsers(
                email: email, root: root, query: "", found: nil, identities: [], events: [], csrf: csrf)
        }
        let found =
            if let byID = try await store.user(id: query) { byID } else {
                try await store.user(email: Accounts.normalise(query))
            }
        guard let found else {
            return Pages.consoleUsers(
                email: email, root: root, query: query, found: nil, identities: [], events: [], csrf: csrf,
                message: "No user with this email or subject.", status: .notFound)
        }
        return Pages.consoleUsers(
            email: email, root: root, query: query,
            found: ConsoleUserState(
                user: found, isAdmin: try await reading.roles.isAdmin(found.id),
                isDisabled: try await reading.disablement.isDisabled(found.id),
                sessions: try await reading.sessions.sessions(of: found.id)),
            identities: try await store.identities(userID: found.id),
            events: try await reading.events.securityEvents(SecurityEventFilter(user: found.id), limit: 20),
            csrf: csrf, message: message)
    }

    /// The purpose of the console's forms in `browser`: bound to its session.
    private static func csrfPurpose(_ browser: BrowserState) -> String {
        CSRFToken.consolePurpose(sessionCookie: browser.sessionCookie)
    }

    /// The CSRF token of the console's forms in `browser`.
    static func csrf(_ browser: BrowserState) -> String {
        browser.csrfToken(for: csrfPurpose(browser))
    }

    /// The events page for `admin`, filtered by `fields`.
    private static func events(
        _ fields: FormFields, admin: UserRecord, store: any SecurityEventStore
    ) async throws(StorageError) -> Response {
        let email = admin.email ?? admin.id
        let filter = ConsoleEventFilter(fields)
        let query: AdminEventQuery
        do throws(AdminError) {
            query = try AdminEventQuery(fields)
        } catch {
            return Pages.consoleEvents(
                email: email, root: "../../", events: [], filter: filter, next: nil,
                error: error.errorDescription ?? error.code)
        }
        let (events, next) = try await query.page(in: store, fields: fields)
        return Pages.consoleEvents(email: email, root: "../../", events: events, filter: filter, next: next)
    }

    /// Answers with `page` for the admin the browser is signed in as, when ``AdminConsoleGate`` allows it; otherwise
    /// with the gate's refusal, or a redirect to sign in again. `root` leads from the page to the issuer's root.
    static func answer(
        _ browser: BrowserState, responder: SignInResponder, gate: AdminConsoleGate, root: String,
        _ page: (UserRecord) async throws(StorageError) -> Response
    ) async throws(StorageError) -> Response {
        let session = try await responder.sessions.current(cookieValue: browser.sessionCookie)
        switch try await gate.decide(session: session) {
        case .allowed(let admin):
            return try await page(admin)
        case .stale:
            return Responses.redirect(
                to: root + "account/sign-in?" + FormEncoding.encode([("return_to", path)]))
        case .signedOut:
            return Pages.consoleRefusal(
                title: "Admin console", message: "Sign in as an admin to use the console.",
                links: [("Sign in", "admin/console/sign-in")], root: root, status: .unauthorized)
        case .notAdmin:
            return Pages.consoleRefusal(
                title: "No access", message: "This account cannot use the admin console.",
                links: [("Sign in as another account", "admin/console/sign-in")], root: root, status: .forbidden)
        case .needsSecondFactor:
            return Pages.consoleRefusal(
                title: "Second factor needed",
                message: "The console needs a sign-in with a second factor. Turn on two-step sign-in or add a passkey "
                    + "on your account page, then sign in again with it.",
                links: [("Your account", "account"), ("Sign in again", "admin/console/sign-in")], root: root,
                status: .forbidden)
        }
    }
}

/// A console form as a change sees it, after the gate and the CSRF check: who submitted it, what it holds, the request's
/// origin acted by the admin, the CSRF token of the page the answer shows, and the request's logger.
struct ConsoleFormSubmission: Sendable {
    /// The admin who submitted it.
    var admin: UserRecord
    /// Its fields.
    var form: FormFields
    /// Where it came from, with the admin as the actor.
    var origin: RequestOrigin
    /// The CSRF token of the console's forms in the browser.
    var csrf: String
    /// The request's logger.
    var logger: Logger

    /// The admin's address (their subject when they have none), as the pages show it.
    var email: String { admin.email ?? admin.id }
}
