import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// `GET` and `POST /device` (RFC 8628 §3.3): the verification page. The person enters the user code (prefilled from
/// `?user_code=`, the `verification_uri_complete`); a valid code becomes a pending request that goes through the
/// usual sign-in page when the browser has no session, then always a confirmation naming the client, its scopes and
/// the device request (Allow / Deny, posted to `/consent`). A wrong, expired or used code shows the form again with
/// an error; codes are counted per browser (``DeviceCodeAttempts``).
enum DeviceRoutes {
    /// Adds `GET` and `POST /device` over the sign-in pages of `responder`.
    static func add(to router: Router<some RequestContext>, responder: SignInResponder) {
        router.get(RouterPath(DeviceFlow.verificationPath)) { request, _ in
            await responder.query(for: request) { browser, query throws(StorageError) in
                Pages.deviceCode(
                    csrf: browser.csrfToken(for: CSRFToken.devicePurpose),
                    userCode: query["user_code"],
                    error: nil
                )
            }
        }
        router.post(RouterPath(DeviceFlow.verificationPath)) { request, _ in
            await responder.form(for: request) { browser, form throws(StorageError) in
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: CSRFToken.devicePurpose) else {
                    return Pages.forbidden()
                }
                return try await verify(form["user_code"] ?? "", browser: browser, responder: responder)
            }
        }
    }

    /// Checks the typed code and continues with its device authorization.
    private static func verify(
        _ typed: String,
        browser: BrowserState,
        responder: SignInResponder
    ) async throws(StorageError) -> Response {
        let attempts = DeviceCodeAttempts(
            store: responder.store, keys: responder.derivedKeys, policy: responder.signInLockout,
            now: responder.now)
        let csrf = browser.csrfToken(for: CSRFToken.devicePurpose)
        if let seconds = try await attempts.begin(browserSecret: browser.csrfSecret) {
            var page = Pages.deviceCode(
                csrf: csrf, userCode: typed, error: "Too many wrong codes. Try again in \(seconds) seconds.",
                status: .tooManyRequests)
            page.headers[.retryAfter] = "\(seconds)"
            return page
        }
        let now = responder.now()
        guard let normalised = UserCode.normalise(typed),
            let device = try await responder.store.pendingDeviceAuthorization(
                userCodeHash: UserCode.hash(normalised: normalised, keys: responder.derivedKeys), now: now),
            let client = try await responder.store.client(id: device.clientID)
        else {
            return Pages.deviceCode(
                csrf: csrf, userCode: typed,
                error: "That code is not valid, has expired or was used already. Check the code on your device.",
                status: .badRequest)
        }
        try await attempts.clear(browserSecret: browser.csrfSecret)
        let pending = PendingAuthorization(
            device: device, client: client,
            verificationURI: responder.issuer.current + DeviceFlow.verificationPath,
            browserBinding: browser.requestBinding, now: now)
        let session = try await responder.sessions.current(cookieValue: browser.sessionCookie)
        let step = try await responder.flow.step(for: pending, session: session)
        return try await responder.respond(to: step, pending: pending, browser: browser, stored: false)
    }
}
