import Foundation
import Hummingbird

/// `GET`/`POST /login` and `/signup`: the forms of a pending authorization request. A successful sign-in or sign-up
/// starts a browser session (a new cookie, whatever the browser had) and continues the request.
enum SignInRoutes {
    static func add(to router: Router<some RequestContext>, responder: SignInResponder) {
        router.get("/login") { request, _ in
            await show(request, responder: responder) { pending, csrf in
                Pages.signIn(pending, csrf: csrf, email: nil, error: nil)
            }
        }
        router.get("/signup") { request, _ in
            await show(request, responder: responder) { pending, csrf in
                Pages.signUp(pending, csrf: csrf, email: nil, name: nil, error: nil)
            }
        }
        router.post("/login") { request, _ in
            await submit(request, responder: responder) { pending, form, csrf throws(AccountError) in
                let email = form["email"] ?? ""
                do throws(AccountError) {
                    return .success(
                        try await responder.provider.accounts.signIn(email: email, password: form["password"] ?? ""))
                } catch {
                    switch error {
                    case .invalidCredentials, .locked:
                        // One message for an unknown email and a wrong password (and the lockout counts unknown
                        // emails too): the page tells nobody who has an account.
                        var page = Pages.signIn(
                            pending, csrf: csrf, email: email, error: error.errorDescription,
                            status: error == .invalidCredentials ? .badRequest : .tooManyRequests
                        )
                        if case .locked(let seconds) = error { page.headers[.retryAfter] = "\(seconds)" }
                        return .failure(page)
                    default:
                        throw error
                    }
                }
            }
        }
        router.post("/signup") { request, _ in
            await submit(request, responder: responder) { pending, form, csrf throws(AccountError) in
                let (email, name) = (form["email"] ?? "", form["name"])
                do throws(AccountError) {
                    let user = try await responder.provider.accounts.signUp(
                        email: email, password: form["password"] ?? "", name: name)
                    return .success(user)
                } catch {
                    switch error {
                    case .invalidEmail, .weakPassword, .emailTaken:
                        return .failure(
                            Pages.signUp(
                                pending, csrf: csrf, email: email, name: name, error: error.errorDescription,
                                status: .badRequest
                            )
                        )
                    default:
                        throw error
                    }
                }
            }
        }
    }

    /// Shows a form of the pending request named in the query (`?request=`), or the page refusing it (expired, or
    /// started in another browser).
    private static func show(
        _ request: Request,
        responder: SignInResponder,
        render: (PendingAuthorization, _ csrf: String) -> Response
    ) async -> Response {
        await responder.page(for: request) { browser throws(StorageError) in
            switch try await responder.pending(id: FormFields(query: request.uri.query)["request"], browser: browser) {
            case .found(let pending):
                return render(pending, browser.csrfToken(for: CSRFToken.signInPurpose(requestID: pending.id)))
            case .refused(let page):
                return page
            }
        }
    }

    /// What a form's account step gives: the user, or the page to show instead.
    private enum AccountOutcome {
        case success(UserRecord)
        case failure(Response)
    }

    /// The common part of both forms: the pending request, the CSRF check, the account step, then a new session and
    /// the request's next step.
    private static func submit(
        _ request: Request,
        responder: SignInResponder,
        account: (PendingAuthorization, FormFields, _ csrf: String) async throws(AccountError) -> AccountOutcome
    ) async -> Response {
        await responder.form(for: request) { browser, form throws(StorageError) in
            let pending: PendingAuthorization
            switch try await responder.pending(id: form["request"], browser: browser) {
            case .found(let found): pending = found
            case .refused(let page): return page
            }
            let purpose = CSRFToken.signInPurpose(requestID: pending.id)
            guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else { return Pages.forbidden() }
            let user: UserRecord
            do throws(AccountError) {
                switch try await account(pending, form, browser.csrfToken(for: purpose)) {
                case .success(let found): user = found
                case .failure(let page): return page
                }
            } catch .storage(let error) {
                throw error
            } catch {
                return Pages.serverError()
            }
            let (cookieValue, session) = try await responder.sessions.restart(
                replacing: browser.sessionCookie, subject: user.id)
            let step = try await responder.flow.step(for: pending, session: session, freshSignIn: true)
            if case .consent = step {
                // The consent page comes next: remember that this session's sign-in was made for this request, so
                // `/consent` finds a forced sign-in done by it (and by no other session).
                try await responder.provider.store.recordPendingAuthorizationSignIn(
                    idHash: pending.record.idHash, sessionHash: session.idHash, now: responder.provider.now())
            }
            var response = try await responder.respond(to: step, pending: pending, browser: browser, stored: true)
            response.setCookie(responder.cookies.session(cookieValue))
            return response
        }
    }
}
