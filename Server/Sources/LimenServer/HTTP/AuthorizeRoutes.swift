import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import NIOCore

/// `GET` and `POST /authorize` (OpenID Connect Core §3.1.2.1): validation and error behaviour, then the sign-in
/// side (``SignInResponder``): the sign-in or consent page, or at once the redirect with a code.
enum AuthorizeRoutes {
    /// The parameter naming an upstream provider (``IdentityProvider/id``) to sign in with at once, skipping the
    /// sign-in page. A hint, as `login_hint` is: one naming no configured provider is ignored and the page shown.
    static let providerHintParameter = "idp_hint"
    /// The route of both methods, limited per client address (each request stores a pending sign-in).
    static let route: RouterPath = "/authorize"

    static func add(to router: Router<some RequestContext>, responder: SignInResponder) {
        let validator = AuthorizationValidator(
            store: responder.store, resources: responder.resources)
        // Repeats are answered by the validator: some are error pages, some errors sent to the client.
        router.get(route) { request, _ in
            await respond(
                to: FormFields.query(of: request, allowingRepeats: true), request: request, validator: validator,
                responder: responder)
        }
        router.post(route) { request, _ in
            await respond(
                to: await FormFields.read(from: request, allowingRepeats: true), request: request,
                validator: validator, responder: responder)
        }
    }

    private static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") ?? false
    }

    private static func respond(
        to read: Result<FormFields, FormRefusal>,
        request: Request,
        validator: AuthorizationValidator,
        responder: SignInResponder
    ) async -> Response {
        let wantsJSON = wantsJSON(request)
        let parameters: FormFields
        switch read {
        case .success(let fields): parameters = fields
        case .failure(let refusal): return errorPage("invalid_request", refusal.description, refusal.status, wantsJSON)
        }
        let outcome: AuthorizationValidator.Outcome
        do {
            outcome = try await validator.validate(parameters)
        } catch let error where error.isUnavailable {
            return StorageError.unavailableResponse(html: !wantsJSON)
        } catch {
            return errorPage("server_error", "the server could not read its data", .internalServerError, wantsJSON)
        }
        switch outcome {
        case .errorPage(let error, let description):
            return errorPage(error, description, .badRequest, wantsJSON)
        case .redirectError(let redirectURI, let error, let description, let state):
            return Responses.redirect(
                to: AuthorizationValidator.errorRedirect(
                    redirectURI: redirectURI,
                    error: error,
                    description: description,
                    state: state,
                    issuer: responder.issuer.current
                )
            )
        case .accepted(let accepted):
            return await responder.begin(accepted, providerHint: parameters[providerHintParameter], request: request)
        }
    }

    private static func errorPage(
        _ error: String,
        _ description: String,
        _ status: HTTPResponse.Status,
        _ wantsJSON: Bool
    ) -> Response {
        if wantsJSON {
            return Responses.jsonError(error, description: description, status: status)
        }
        return Pages.message(title: "Sign-in request refused", message: "\(description) (\(error))", status: status)
    }
}
