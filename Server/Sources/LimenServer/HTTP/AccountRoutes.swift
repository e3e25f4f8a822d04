import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The hosted account page over the browser session: `GET /account` shows the profile (the fields the user may edit
/// in a form, encrypted fields as "encrypted on your device"); `POST /account` (CSRF-checked, bound to the session)
/// saves the form as the API's `PATCH /v1/me/data` would, on the revision the page showed (`If-Match`); with
/// `intent=sign_out_everywhere` ends every session of the account, and with `intent=delete_account` and the current
/// `password` deletes the account and everything of it (``AccountDeletion``); the intents of
/// ``AccountSecurityForms`` change the user's passkeys and two-step sign-in (after signing in again when the session's
/// sign-in is too old: ``AccountReauthentication``).
enum AccountRoutes {
    static func add(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, profiles: ProfileService,
        security: AccountSecurityForms
    ) {
        router.get("/account") { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                guard let (user, session, csrf) = try await signedIn(browser, responder: responder) else {
                    return Pages.accountSignedOut()
                }
                let section = try await security.section(for: user, session: session)
                return await page(for: user, csrf: csrf, security: section, profiles: profiles)
            }
        }
        router.post("/account") { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.form(for: request) { browser, form throws(StorageError) in
                guard let (user, session, csrf) = try await signedIn(browser, responder: responder) else {
                    return Pages.accountSignedOut()
                }
                let purpose = CSRFToken.accountPurpose(sessionCookie: browser.sessionCookie)
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else {
                    return Pages.forbidden()
                }
                if let intent = form["intent"], AccountSecurityForms.intents.contains(intent) {
                    let outcome = try await security.answer(
                        intent, form: form, user: user, session: session, origin: origin)
                    // A sign-in too old for a change: sign in again, then back here to make it again.
                    if outcome.needsSignIn { return Responses.redirect(to: AccountReauthentication.fromAccountPage) }
                    let section = try await security.section(for: user, session: session, outcome: outcome)
                    var answer = await page(
                        for: user, csrf: csrf, security: section, profiles: profiles, notice: outcome.notice,
                        error: outcome.error, status: outcome.status)
                    if let retryAfter = outcome.retryAfter { answer.headers[.retryAfter] = String(retryAfter) }
                    return answer
                }
                let section = try await security.section(for: user, session: session)
                if form["intent"] == "sign_out_everywhere" {
                    let ended = SecurityEvent(.sessionEnded, user: user.id, details: .ended(.signedOutEverywhere))
                    try await responder.store.deleteEverySession(
                        subject: user.id,
                        recording: responder.engine.services.accounts.events.records([ended], from: origin))
                    return try await responder.signOut(browser, answering: Pages.signedOutEverywhere(), origin: origin)
                }
                if form["intent"] == AccountDeletion.intent {
                    let decision = try await AccountDeletion.confirm(
                        user, password: form["password"], from: origin,
                        signIn: responder.passwordSignIn)
                    if case .refused(let message, let status, let retryAfter) = decision {
                        var refused = await page(
                            for: user, csrf: csrf, security: section, profiles: profiles, error: message,
                            status: status)
                        if let retryAfter { refused.headers[.retryAfter] = String(retryAfter) }
                        return refused
                    }
                    _ = try await responder.accountRemoval.deleteAccount(
                        userID: user.id, logger: context.logger, origin: origin)
                    context.logger.notice(
                        "A user deleted their account on the account page", metadata: ["sub": "\(user.id)"])
                    return try await responder.signOut(browser, answering: Pages.accountDeleted(), origin: origin)
                }
                do throws(ProfileError) {
                    _ = try await profiles.write(
                        userID: user.id, by: .user,
                        ifMatch: form["revision"].map { ProfileETag.value(revision: Int($0) ?? -1) }
                    ) { current, schema throws(ProfileError) in
                        try ProfileBody.patched(
                            current, with: .object(["data": .object(try AccountForm.changes(in: form, schema: schema))])
                        )
                    }
                } catch {
                    return await page(
                        for: user, csrf: csrf, security: section, profiles: profiles, error: message(for: error),
                        status: error.status)
                }
                return await page(for: user, csrf: csrf, security: section, profiles: profiles, notice: "Saved.")
            }
        }
    }

    /// The user signed in in `browser`, their session and the CSRF token of the account forms; `nil` without a live
    /// session (or when its user is gone).
    private static func signedIn(
        _ browser: BrowserState,
        responder: SignInResponder
    ) async throws(StorageError) -> (UserRecord, BrowserSessionRecord, String)? {
        guard let session = try await responder.sessions.current(cookieValue: browser.sessionCookie),
            let user = try await responder.store.user(id: session.subject)
        else { return nil }
        return (user, session, browser.csrfToken(for: CSRFToken.accountPurpose(sessionCookie: browser.sessionCookie)))
    }

    /// The account page of `user` as stored now, with `security`.
    private static func page(
        for user: UserRecord,
        csrf: String,
        security: AccountSecuritySection,
        profiles: ProfileService,
        notice: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async -> Response {
        do throws(ProfileError) {
            let schema = try await profiles.schema()
            let profile = try await profiles.profile(userID: user.id)
            return Pages.account(
                email: user.email ?? "a guest account", profile: profile, schema: schema, csrf: csrf,
                security: security,
                notice: notice,
                error: error,
                status: status)
        } catch {
            return Pages.serverError()
        }
    }

    /// What the page says about a refused save.
    private static func message(for error: ProfileError) -> String {
        switch error {
        case .preconditionFailed, .conflict: "Your profile changed elsewhere; here it is now. Make your change again."
        default: error.errorDescription ?? error.code
        }
    }
}
