import Foundation
import Hummingbird
import LimenOIDC

/// `GET /authorize`: validation and error behaviour; the sign-in pages come next.
enum AuthorizeRoutes {
    static func add(to router: Router<some RequestContext>, provider: Provider) {
        let validator = AuthorizationValidator(store: provider.store)
        router.get("/authorize") { request, _ in
            let parameters = FormEncoding.decode(request.uri.query ?? "").map { (name: $0.0, value: $0.1) }
            let wantsJSON = request.headers[.accept]?.contains("application/json") ?? false
            let outcome: AuthorizationValidator.Outcome
            do {
                outcome = try await validator.validate(parameters)
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
                        issuer: provider.issuer.current
                    )
                )
            case .accepted:
                return errorPage(
                    "temporarily_unavailable",
                    "The request is valid, but this server has no sign-in pages yet.",
                    .notImplemented,
                    wantsJSON
                )
            }
        }
    }

    private static func errorPage(
        _ error: String,
        _ description: String,
        _ status: HTTPResponse.Status,
        _ wantsJSON: Bool
    ) -> Response {
        if wantsJSON {
            return Responses.json(
                .object(["error": .string(error), "error_description": .string(description)]),
                status: status,
                noStore: true
            )
        }
        return Responses.html(title: "Sign-in request refused", message: "\(description) (\(error))", status: status)
    }
}
