import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// `POST /consent`: the user allows or denies a third-party client. Allow remembers the grant (user, client,
/// scopes) and issues the code; Deny sends `access_denied` to the client.
///
/// A decision is taken only when consent really is the request's step for the signed-in user: the sign-in
/// requirement is evaluated again, and a forced sign-in (`prompt=login`, `max_age`, `id_token_hint`) counts only when
/// this very session signed in for this request. Otherwise the sign-in form is shown, whatever was posted.
enum ConsentRoutes {
    static func add(to router: Router<some RequestContext>, responder: SignInResponder) {
        router.post("/consent") { request, context in
            return await responder.form(for: request) { browser, form throws(StorageError) in
                let pending: PendingAuthorization
                switch try await responder.pending(id: form["request"], browser: browser, logger: context.logger) {
                case .found(let found): pending = found
                case .refused(let page): return page
                }
                guard let session = try await responder.sessions.current(cookieValue: browser.sessionCookie) else {
                    // Signed out since the page was shown: sign in again before anything is granted.
                    return try await responder.respond(to: .signIn, pending: pending, browser: browser, stored: true)
                }
                let purpose = CSRFToken.consentPurpose(requestID: pending.id, subject: session.subject)
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else {
                    return Pages.forbidden()
                }
                let step = try await responder.flow.step(
                    for: pending, session: session, freshSignIn: pending.wasSignedIn(by: session))
                if step == .signIn {
                    return try await responder.respond(to: .signIn, pending: pending, browser: browser, stored: true)
                }
                let completion: AuthorizationFlow.Completion
                switch form["decision"] {
                case "allow":
                    try await responder.flow.recordConsent(for: pending, subject: session.subject)
                    completion = .code(session: session)
                case "deny":
                    completion = .error("access_denied", description: "the user did not allow this client")
                default:
                    return Pages.message(
                        title: "Request refused", message: "Choose Allow or Deny.", status: .badRequest,
                        uiLocales: pending.record.uiLocales)
                }
                return try await responder.respond(
                    to: .complete(completion), pending: pending, browser: browser, stored: true)
            }
        }
    }
}
