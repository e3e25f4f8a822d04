import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenWire

/// Refuses the requests it counts (``LimitedRoutes``: every POST, or the routes named) from a client address over its
/// ``RateLimit`` with `429 Too Many Requests` and `Retry-After` (RFC 6585 §4): the sign-in forms and the token,
/// revocation and introspection endpoints are all POSTs. Routes are recognised by the route the router matched, so a
/// path spelt `//login` or `/login/` is counted as `/login`. Behind a trusted proxy the client address comes from
/// `X-Forwarded-For` (see ``TrustedProxies``).
struct RateLimitMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let limiter: RateLimiter
    let proxies: TrustedProxies
    let now: @Sendable () -> Date
    /// The requests counted; the others pass.
    var counted = LimitedRoutes.everyPost

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard counted.counts(request.method, route: context.endpointPath) else {
            return try await next(request, context)
        }
        let address = proxies.clientAddress(of: request, peer: context.remoteAddress)
        guard let wait = limiter.admit(address, at: now()) else { return try await next(request, context) }
        let seconds = max(1, Int(wait.rounded(.up)))
        let message = "Too many requests from this address. Try again in \(seconds) seconds."
        var response =
            request.acceptsHTML
            ? Responses.html(title: "Slow down", message: message, status: .tooManyRequests)
            : Responses.jsonError("too_many_requests", description: message, status: .tooManyRequests)
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
