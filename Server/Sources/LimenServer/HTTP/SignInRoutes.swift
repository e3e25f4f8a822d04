import Foundation
import HTTPTypes
import Hummingbird
import LimenServerWire

/// `GET`/`POST /login` and `/signup`: the forms of a pending authorization request. A successful sign-in or sign-up
/// starts a browser session (a new cookie, whatever the browser had) and continues the request. Sign-in is throttled
/// per email and client address (``PasswordSignIn``); with sign-up turned off (``ServerConfiguration/signUpEnabled``)
/// `/signup` refuses and the sign-in page does not link to it.
enum SignInRoutes {
    /// The paths whose POSTs check or set a password, limited per client address by
    /// ``ServerConfiguration/signInRateLimit``.
    static let passwordPaths: Set<String> = ["/login", "/signup"]

    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        let configuration = responder.provider.configuration
        router.get("/login") { request, _ in
            await show(request, responder: responder) { pending, csrf in
                Pages.signIn(pending, csrf: csrf, email: nil, error: nil, offersSignUp: configuration.signUpEnabled)
            }
        }
        router.get("/signup") { request, _ in
            guard configuration.signUpEnabled else { return Pages.signUpOff() }
            return await show(request, responder: responder) { pending, csrf in
                Pages.signUp(pending, csrf: csrf, email: nil, name: nil, error: nil)
            }
        }
        router.post("/login") { request, context in
            let clientAddress = configuration.trustedProxies.clientAddress(of: request, peer: context.remoteAddress)
            return await submit(request, responder: responder) { pending, form, csrf throws(AccountError) in
                let email = form["email"] ?? ""
                do throws(AccountError) {
                    return .success(
                        try await responder.provider.passwordSignIn.signIn(
                            email: email, password: form["password"] ?? "", from: clientAddress))
                } catch {
                    // One message for an unknown email and a wrong password (and the lockout counts unknown emails
                    // too): the page tells nobody who has an account.
                    guard let status = signInRefusalStatus(error) else { throw error }
                    var page = Pages.signIn(
                        pending, csrf: csrf, email: email, error: error.errorDescription,
                        offersSignUp: configuration.signUpEnabled, status: status)
                    if let seconds = error.retryAfter { page.headers[.retryAfter] = "\(seconds)" }
                    return .failure(page)
                }
            }
        }
        router.post("/signup") { request, _ in
            guard configuration.signUpEnabled else { return Pages.signUpOff() }
            return await submit(request, responder: responder) { pending, form, csrf throws(AccountError) in
                let (email, name) = (form["email"] ?? "", form["name"])
                do throws(AccountError) {
                    let user = try await responder.provider.accounts.signUp(
                        email: email, password: form["password"] ?? "", name: name)
                    return .success(user)
                } catch {
                    guard let status = signUpRefusalStatus(error) else { throw error }
                    var page = Pages.signUp(
                        pending, csrf: csrf, email: email, name: name, error: error.errorDescription, status: status)
                    if let seconds = error.retryAfter { page.headers[.retryAfter] = "\(seconds)" }
                    return .failure(page)
                }
            }
        }
    }

    /// The status of the sign-in form shown again after `error`, or `nil` for an error page instead.
    private static func signInRefusalStatus(_ error: AccountError) -> HTTPResponse.Status? {
        switch error {
        case .invalidCredentials: .badRequest
        case .locked, .attemptInProgress: .tooManyRequests
        case .busy: .serviceUnavailable
        default: nil
        }
    }

    /// The status of the sign-up form shown again after `error`, or `nil` for an error page instead.
    private static func signUpRefusalStatus(_ error: AccountError) -> HTTPResponse.Status? {
        switch error {
        case .invalidEmail, .weakPassword, .fieldTooLong, .emailTaken: .badRequest
        case .busy: .serviceUnavailable
        default: nil
        }
    }

    /// Shows a form of the pending request named in the query (`?request=`), or the page refusing it (expired, or
    /// started in another browser).
    private static func show(
        _ request: Request,
        responder: SignInResponder,
        render: (PendingAuthorization, _ csrf: String) -> Response
    ) async -> Response {
        await responder.query(for: request) { browser, query throws(StorageError) in
            switch try await responder.pending(id: query["request"], browser: browser) {
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
