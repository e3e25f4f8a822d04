import HTTPTypes
import Hummingbird
import LimenServerStorage
import Logging

/// A failure of the store answers as an HTTP error wherever it is thrown: a database that cannot serve for now
/// (``StorageError/unavailable(_:)``: it restarted, the network dropped, the disk is full) is `503 Service Unavailable`
/// with `Retry-After: 1`, so the caller tries again and the node goes on serving once the database is back; any other
/// failure is the bare `500` Hummingbird gives an unknown error (which ``ServerErrorLogMiddleware`` logs).
///
/// The `503` is a hosted page for a browser (a request accepting `text/html`) and otherwise the OAuth error object
/// `temporarily_unavailable` (RFC 6749 §4.1.2.1) that JSON endpoints use; logged as a warning with the matched route,
/// never the path.
extension StorageError: HTTPResponseError {
    /// `503` for ``StorageError/unavailable(_:)``, otherwise `500`.
    public var status: HTTPResponse.Status {
        if case .unavailable = self { return .serviceUnavailable }
        return .internalServerError
    }

    /// The answer to `request`: an HTML or JSON `503`, or an empty `500`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        guard case .unavailable(let reason) = self else { return Response(status: .internalServerError) }
        context.logger.warning(
            "Answered 503: the database is unavailable",
            metadata: ["route": "\(context.endpointPath ?? "unmatched")", "reason": "\(reason)"])
        return Self.unavailableResponse(html: request.acceptsHTML).withSecurityHeaders()
    }

    /// The `503` that tells the caller to try again in a second: a hosted page when `html`, else the OAuth error
    /// object `temporarily_unavailable`.
    static func unavailableResponse(html: Bool) -> Response {
        let message = "The service is briefly unavailable; try again shortly."
        var response =
            html
            ? Pages.message(title: "Temporarily unavailable", message: message, status: .serviceUnavailable)
            : Responses.jsonError("temporarily_unavailable", description: message, status: .serviceUnavailable)
        response.headers[.retryAfter] = "1"
        return response
    }
}
