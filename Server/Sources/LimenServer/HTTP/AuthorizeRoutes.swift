import Foundation
import Hummingbird
import LimenOIDC
import NIOCore

/// `GET` and `POST /authorize` (OpenID Connect Core §3.1.2.1): validation and error behaviour; the sign-in pages
/// come next.
enum AuthorizeRoutes {
    /// The largest form body accepted.
    static let maximumBodySize = 64 * 1024

    static func add(to router: Router<some RequestContext>, provider: Provider) {
        let validator = AuthorizationValidator(store: provider.store)
        router.get("/authorize") { request, _ in
            let parameters = FormEncoding.decode(request.uri.query ?? "").map { (name: $0.0, value: $0.1) }
            return await respond(to: parameters, request: request, validator: validator, provider: provider)
        }
        router.post("/authorize") { request, _ in
            let wantsJSON = request.headers[.accept]?.contains("application/json") ?? false
            let contentType = request.headers[.contentType]?.lowercased() ?? ""
            guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
                return errorPage(
                    "invalid_request",
                    "the body must be application/x-www-form-urlencoded",
                    .unsupportedMediaType,
                    wantsJSON
                )
            }
            var request = request
            guard let body = try? await request.collectBody(upTo: maximumBodySize) else {
                return errorPage("invalid_request", "the request body is too large", .contentTooLarge, wantsJSON)
            }
            let parameters = FormEncoding.decode(String(buffer: body)).map { (name: $0.0, value: $0.1) }
            return await respond(to: parameters, request: request, validator: validator, provider: provider)
        }
    }

    private static func respond(
        to parameters: [(name: String, value: String)],
        request: Request,
        validator: AuthorizationValidator,
        provider: Provider
    ) async -> Response {
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
