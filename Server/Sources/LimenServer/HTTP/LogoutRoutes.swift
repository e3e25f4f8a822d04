import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// `GET /logout` asks, `POST /logout` (CSRF-checked) ends the browser session: its row is deleted and the cookie
/// cleared, so the next `/authorize` shows the sign-in form again.
enum LogoutRoutes {
    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        router.get("/logout") { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                let session = try await responder.sessions.current(cookieValue: browser.sessionCookie)
                let purpose = CSRFToken.logoutPurpose(sessionCookie: browser.sessionCookie)
                return Pages.logout(csrf: browser.csrfToken(for: purpose), signedIn: session != nil)
            }
        }
        router.post("/logout") { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.form(for: request) { browser, form throws(StorageError) in
                let purpose = CSRFToken.logoutPurpose(sessionCookie: browser.sessionCookie)
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else {
                    return Pages.forbidden()
                }
                return try await responder.signOut(browser, answering: Pages.signedOut(uiLocales: nil), origin: origin)
            }
        }
    }
}
