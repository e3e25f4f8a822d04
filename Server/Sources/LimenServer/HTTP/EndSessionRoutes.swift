import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// `GET` and `POST /end_session` (OpenID Connect RP-Initiated Logout 1.0). A request carrying a valid
/// `id_token_hint` for the signed-in user ends the session at once; any other request with a session asks the user
/// first (a CSRF-checked form posting back here), so another site cannot sign the user out with a link. Afterwards
/// the browser goes to the client's registered `post_logout_redirect_uri` with `state`, or sees a "signed out" page.
enum EndSessionRoutes {
    /// The field the confirmation form adds, marking a POST as the user's answer (which must carry the CSRF token).
    static let confirmationField = "confirmed"

    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        router.get("/end_session") { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.query(for: request) { browser, query throws(StorageError) in
                try await respond(to: query, browser: browser, responder: responder, origin: origin)
            }
        }
        router.post("/end_session") { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.form(for: request) { browser, form throws(StorageError) in
                try await respond(to: form, browser: browser, responder: responder, origin: origin)
            }
        }
    }

    private static func respond(
        to fields: FormFields,
        browser: BrowserState,
        responder: SignInResponder,
        origin: RequestOrigin
    ) async throws(StorageError) -> Response {
        let request: EndSessionCheck
        switch try await EndSessionCheck.check(
            fields, keys: responder.keys, issuer: responder.issuer.current, clients: responder.store,
            now: responder.now())
        {
        case .success(let checked): request = checked
        case .failure(let refusal):
            return Pages.message(
                title: "Sign-out refused", message: refusal.description, status: .badRequest,
                uiLocales: fields["ui_locales"])
        }
        let confirmed = fields[confirmationField] != nil
        let purpose = CSRFToken.endSessionPurpose(sessionCookie: browser.sessionCookie)
        if confirmed && !browser.acceptsCSRFToken(fields[CSRFToken.fieldName], for: purpose) {
            return Pages.forbidden()
        }
        let session = try await responder.sessions.current(cookieValue: browser.sessionCookie)
        if let session, !confirmed, request.hint?.subject != session.subject {
            return Pages.signOutConfirmation(
                message: request.client.map { "\($0.name) asks you to sign out of Limen in this browser." }
                    ?? "Sign out of Limen in this browser?",
                action: "end_session",
                csrf: browser.csrfToken(for: purpose),
                fields: request.confirmationFields + [(confirmationField, "yes")],
                uiLocales: request.uiLocales
            )
        }
        let answer = request.redirect.map(Responses.redirect(to:)) ?? Pages.signedOut(uiLocales: request.uiLocales)
        guard browser.sessionCookie != nil else { return answer }
        return try await responder.signOut(browser, answering: answer, origin: origin)
    }
}
