import HTTPTypes
import Hummingbird
import LimenServerCore

/// Adds the headers every response carries: no MIME sniffing, no framing, no referrer leaking codes or state.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await next(request, context).withSecurityHeaders()
    }
}

extension Response {
    private static var referrerPolicy: HTTPField.Name? { HTTPField.Name("Referrer-Policy") }

    /// The response with the headers every response carries (a policy it sets itself is kept): what
    /// ``SecurityHeadersMiddleware`` adds, for a response made from an error thrown through it.
    func withSecurityHeaders() -> Response {
        var response = self
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
