import HTTPTypes
import Hummingbird
import LimenServerCore

/// Adds the headers every response carries: no MIME sniffing, no framing, no referrer leaking codes or state.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    private static var referrerPolicy: HTTPField.Name? { HTTPField.Name("Referrer-Policy") }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        if let name = Self.referrerPolicy, response.headers[name] == nil {
            response.headers[name] = "no-referrer"
        }
        return response
    }
}
