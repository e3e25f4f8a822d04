import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The admin console: hosted pages under `/admin/console` over the browser session, for a user holding the admin role
/// whose sign-in used a second factor and is fresh (``AdminConsoleGate``); never a bearer token in the page. The JSON
/// admin API keeps every path it has (no console path is one of its). `GET /admin` sends a browser (`Accept` naming
/// `text/html`) to the console; anyone else gets the `404` it always had.
///
/// - `/admin/console`: the home page.
/// - `/admin/console/sign-in`: a fresh sign-in on the hosted pages, back to the console (``AccountReauthentication``).
/// - `/admin/console/clients`: the clients, and a form (`POST`) registering one, whose secret is shown once
///   (``AdminClients``, as the admin API's).
/// - `/admin/console/events`: the security events, filtered by type, user, client and time (``AdminEventQuery``).
///
/// A stale sign-in is sent to sign in again, as on `/account`, and comes back. Every form is CSRF-checked (bound to
/// the session), and every change is recorded with the admin as its actor (``SecurityEventActor/admin(_:)``).
enum AdminConsoleRoutes {
    /// The console's path.
    static let path = "/admin/console"

    /// Adds the routes, answering through `responder`'s browser state and asking `gate`; clients are changed through
    /// `clients`, and the events read from `store`.
    static func add(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        clients: AdminClients, events store: any SecurityEventStore
    ) {
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
        router.post(RouterPath(path + "/clients")) { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.form(for: request) { browser, form throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: csrfPurpose(browser)) else {
                        return Pages.forbidden()
                    }
                    return try await register(
                        form, admin: admin, origin: origin, clients: clients, csrf: csrf(browser))
                }
            }
        }
        router.get(RouterPath(path + "/events")) { request, _ in
            await responder.query(for: request) { browser, fields throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    try await events(fields.withoutEmptyValues, admin: admin, store: store)
                }
            }
        }
    }

    /// Registers the client `form` asks for, by `admin` from `origin`: the clients page with the new client's secret
    /// shown once, or with why it was refused.
    private static func register(
        _ form: FormFields, admin: UserRecord, origin: RequestOrigin, clients: AdminClients, csrf: String
    ) async throws(StorageError) -> Response {
        var origin = origin
        origin.actor = .admin(admin.id)
        let redirectURIs = (form["redirect_uris"] ?? "").split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let request = AdminClientRequest(
            clientID: form["client_id"] ?? "", clientName: form["client_name"], kind: form["kind"],
            redirectURIs: redirectURIs)
        let email = admin.email ?? admin.id
        let outcome: Result<(ClientRecord, String?), AdminError>
        do throws(AdminError) {
            outcome = .success(try await clients.register(request, origin: origin))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let created):
            return Pages.consoleClients(
                email: email, root: "../../", clients: try await clients.list(), csrf: csrf, created: created)
        case .failure(.serverError):
            return Pages.serverError()
        case .failure(let error):
            return Pages.consoleClients(
                email: email, root: "../../", clients: try await clients.list(), csrf: csrf,
                error: error.errorDescription ?? error.code, status: error.status)
        }
    }

    /// The purpose of the console's forms in `browser`: bound to its session.
    private static func csrfPurpose(_ browser: BrowserState) -> String {
        CSRFToken.consolePurpose(sessionCookie: browser.sessionCookie)
    }

    /// The CSRF token of the console's forms in `browser`.
    private static func csrf(_ browser: BrowserState) -> String {
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
