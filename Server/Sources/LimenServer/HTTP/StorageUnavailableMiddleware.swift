import HTTPTypes
import Hummingbird
import LimenServerStorage
import Logging

/// Answers a request the database could not serve for now (``StorageError/unavailable(_:)``: it restarted, the network
/// dropped) with `503 Service Unavailable`, `temporarily_unavailable` and `Retry-After: 1`, instead of a `500`: the
/// caller may try again, and the node goes on serving once the database is back. Logged as a warning with the matched
/// route, never the path.
struct StorageUnavailableMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StorageError {
            guard case .unavailable(let reason) = error else { throw error }
            context.logger.warning(
                "Answered 503: the database is unavailable",
                metadata: ["route": "\(context.endpointPath ?? "unmatched")", "reason": "\(reason)"])
            var response = Responses.jsonError(
                "temporarily_unavailable", description: "The service is briefly unavailable; try again shortly.",
                status: .serviceUnavailable)
            response.headers[.retryAfter] = "1"
            return response
        }
    }
}
