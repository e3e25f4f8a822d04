import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

/// For the token endpoint and its kin (`/token`, `/revoke`, `/introspect`, `/device_authorization`): a failure that is
/// not already an HTTP error (a query that failed, say) is answered as RFC 6749 §5.2's `server_error`, and logged by
/// its code through the request's logger, never with a token. An HTTP error other than a `500` passes as it is: a
/// database that cannot serve for now is ``StorageError``'s own `503`.
struct OAuthServerErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status != .internalServerError {
            throw error
        } catch {
            let code = (error as? StorageError)?.code ?? String(describing: type(of: error))
            context.logger.error("Token endpoint failure", metadata: ["error": "\(code)"])
            throw TokenEndpointError.serverError
        }
    }
}
