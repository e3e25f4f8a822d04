import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Signing in again for the account page, when its session's sign-in is too old for a change
/// (``AccountChangeGate/authorize(session:user:)``): `GET /account/sign-in?return_to=PATH` starts a pending sign-in
/// of the session's user for the account page (``PendingAuthorization/init(reauthenticating:email:returnTo:client:browserBinding:now:)``)
/// and sends the browser to the hosted sign-in page; when the same person signs in there, the session is renewed (a
/// fresh `auth_time`) and the browser goes back to `PATH` (a path under `/account` or `/admin/console`, nothing else), where they make
/// their change again. Another account signing in is refused and the session kept. A person with only an upstream
/// identity signs in again through their provider, asked for a fresh sign-in (`prompt=login`, `max_age=0`, its
/// `auth_time` checked), so the provider's own session cannot answer without them; only the identity already linked
/// to the account counts.
enum AccountReauthentication {
    /// Where the account page sends a session too old for a change, relative to `/account`.
    static let fromAccountPage = "account/sign-in?" + FormEncoding.encode([("return_to", "/account")])

    static func add(to router: Router<some RequestContext>, responder: SignInResponder) {
        router.get("/account/sign-in") { request, _ in
            await responder.query(for: request) { browser, query throws(StorageError) in
                guard let returnTo = PendingAuthorization.reauthenticationReturnPath(query["return_to"] ?? "/account")
                else {
                    return Pages.message(
                        title: "Request refused",
                        message: "return_to must be a path of the account page or the admin console.",
                        status: .badRequest)
                }
                guard let session = try await responder.sessions.current(cookieValue: browser.sessionCookie),
                    let user = try await responder.store.user(id: session.subject)
                else { return Pages.accountSignedOut() }
                // The sign-in page is at the issuer's root, one level above this one.
                return try await begin(
                    for: session, email: user.email, returnTo: returnTo, browser: browser, responder: responder,
                    root: "../")
            }
        }
    }

    /// Starts the sign-in again of the person signed in with `session` (whose address is `email`; without a session,
    /// anyone's sign-in, into a new session), ending back at `returnTo` (a ``PendingAuthorization/reauthenticationReturnPath(_:)``),
    /// and sends the browser to the hosted sign-in page, which `root` leads to from the page asking.
    static func begin(
        for session: BrowserSessionRecord?, email: String?, returnTo: String, browser: BrowserState,
        responder: SignInResponder, root: String
    ) async throws(StorageError) -> Response {
        try await responder.store.insertClientIfAbsent(SeedClients.account(now: responder.now()))
        guard let client = try await responder.store.client(id: SeedClients.accountClientID) else {
            return Pages.serverError()
        }
        let pending = PendingAuthorization(
            reauthenticating: session, email: email, returnTo: returnTo, client: client,
            browserBinding: browser.requestBinding, now: responder.now())
        try await responder.store.insertPendingAuthorization(pending.record)
        return Responses.redirect(to: root + FlowPageRoutes.link(to: FlowCatalog.signInFlow, requestID: pending.id))
    }

    /// The end of the sign-in again `pending`, in which `subject` (`nil`: nobody known) signed in by `methods` on a
    /// page `root` leads from to the issuer's root: the same person (anyone, when `pending` hints nobody) gets their
    /// session renewed and goes back to the request's path; anyone else is refused, and the browser keeps the session
    /// it had.
    static func finish(
        subject: String?, methods: AuthenticationMethods, pending: PendingAuthorization, browser: BrowserState,
        responder: SignInResponder, root: String = "."
    ) async throws(StorageError) -> Response {
        // A sign-in again is the hinted person's; the admin console's first sign-in hints nobody.
        guard let subject, pending.record.hintedSubject.map({ $0 == subject }) ?? true else { return anotherAccount }
        guard
            try await responder.store.consumePendingAuthorization(idHash: pending.record.idHash, now: responder.now())
                != nil,
            let returnTo = PendingAuthorization.reauthenticationReturnPath(pending.record.redirectURI)
        else { return Pages.requestGone(uiLocales: pending.record.uiLocales) }
        let (cookieValue, _) = try await responder.sessions.restart(
            replacing: browser.sessionCookie, subject: subject, methods: methods)
        var response = Responses.redirect(to: root + returnTo)
        response.setCookie(responder.cookies.session(cookieValue))
        return response
    }

    /// The refusal of a sign-in to another account than the page's.
    private static var anotherAccount: Response {
        Pages.message(
            title: "Another account",
            message: "You signed in to another account than the one whose page this is, so nothing changed and you "
                + "are still signed in as before. To change the other account, sign out first.",
            status: .forbidden)
    }
}
