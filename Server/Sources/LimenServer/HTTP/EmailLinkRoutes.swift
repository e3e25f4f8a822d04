import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

/// An email's link opened in a browser, for a client without an `email_link_uri` (``EmailLink``). `GET /flows/link`
/// is the page the link leads to: its one script posts the fragment's interaction and code as a form, with the CSRF
/// token of `email_link`, to `POST /email-link` (never in a URL). There, a hosted page's interaction started in the
/// same browser and waiting for the code continues exactly as if the code had been typed on its page (a wrong code is
/// refused on that page and counts against the code's tries; when the step also asks for a new password, its page is
/// shown with the code filled in). The link of an app's sign-in, or of one started in another browser, does not use
/// the code: the page says to type it where it was asked for (``EmailLinkTarget``).
///
/// `POST /email-link` lives at the issuer's root like the other pages, so the pages it answers with (a flow's node,
/// consent) resolve their relative links as theirs do.
enum EmailLinkRoutes {
    /// The path the link page posts to.
    static let submitPath = "/email-link"
    /// The route of ``submitPath``, limited per client address like the sign-in forms.
    static let submitRoute = RouterPath(submitPath)

    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        router.get(RouterPath(EmailLink.hostedPath)) { request, _ in
            await responder.page(for: request) { browser in
                Pages.emailLink(csrf: browser.csrfToken(for: CSRFToken.emailLinkPurpose))
            }
        }
        router.post(submitRoute) { request, context in
            let origin = RequestOrigin(
                request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
            return await responder.form(for: request) { browser, form throws(StorageError) in
                guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: CSRFToken.emailLinkPurpose) else {
                    return Pages.forbidden()
                }
                guard let id = form["interaction"], let code = form["code"], !id.isEmpty, !code.isEmpty else {
                    return Pages.emailLinkIncomplete()
                }
                switch try await EmailLinkTarget.find(interaction: id, browser: browser, responder: responder) {
                case .gone:
                    return Pages.emailLinkGone()
                case .elsewhere:
                    context.logger.notice("An email's link was opened away from its sign-in; its code was not used")
                    return Pages.emailLinkElsewhere(code: shown(code, length: responder.emailCodeLength))
                case .here(let step):
                    return try await proceed(
                        step, code: code, browser: browser, origin: origin, responder: responder)
                }
            }
        }
    }

    /// The code typed on `step`'s page: submitted with the node's button when the code is all the node needs, else
    /// the node's page with the code filled in (a new password is still to be chosen).
    private static func proceed(
        _ step: EmailLinkTarget.Step,
        code: String,
        browser: BrowserState,
        origin: RequestOrigin,
        responder: SignInResponder
    ) async throws(StorageError) -> Response {
        guard responder.signUpEnabled || !step.flow.createsAccounts else {
            return Pages.signUpOff()
        }
        let values: [String: FlowValue] = ["code": .text(code)]
        guard CollectorValidation(node: step.node, policy: step.node.passwordPolicy).problems(with: values).isEmpty
        else {
            return responder.flowRenderer(pending: step.pending, browser: browser).render(
                try responder.engine.pageAnswer(step.interaction), entered: values)
        }
        return try await FlowPageRoutes.run(
            FlowSubmission(node: step.node.id, action: step.button, values: values), on: step.interaction,
            flow: step.flow, pending: step.pending, browser: browser, origin: origin,
            responder: responder)
    }

    /// `code` as the page may show it: only when it has the form of a code (the configured number of digits), so a
    /// crafted link cannot put other words on this site's page.
    private static func shown(_ code: String, length: Int) -> String? {
        let isCode =
            code.count == length && code.allSatisfy { $0.isASCII && $0.isNumber }
        return isCode ? code : nil
    }
}
