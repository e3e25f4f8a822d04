import HTTPTypes
import Hummingbird
import LimenServerCore
import Logging

/// Logs every `500 Internal Server Error` the server answers, returned or thrown, through the request's logger (so with
/// the request id of ``RequestIDMiddleware``, which runs outside it): no `server_error` leaves without a line an
/// operator finds from the id the caller saw. The line names the matched route's pattern (`/admin/users/{id}`), never
/// the path itself, which may carry an interaction id.
struct ServerErrorLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            if response.status == .internalServerError { Self.log(request, context: context, cause: nil) }
            return response
        } catch let error as any HTTPResponseError {
            if error.status == .internalServerError {
                Self.log(request, context: context, cause: String(describing: type(of: error)))
            }
            throw error
        } catch {
            // Hummingbird answers 500 to an error that is not an HTTP error.
            Self.log(request, context: context, cause: String(describing: type(of: error)))
            throw error
        }
    }

    private static func log(_ request: Request, context: Context, cause: String?) {
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "route": "\(context.endpointPath ?? "unmatched")",
        ]
        if let cause { metadata["error_type"] = "\(cause)" }
        context.logger.error("Answered 500 server_error", metadata: metadata)
    }
}
