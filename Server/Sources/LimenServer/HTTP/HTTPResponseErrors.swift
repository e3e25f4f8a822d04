import Hummingbird
import LimenServerCore

extension TokenEndpointError: HTTPResponseError {
    /// RFC 6749 §5.2's JSON error (``response``): what Hummingbird answers when a token-endpoint route throws it.
    public func response(from request: Request, context: some RequestContext) throws -> Response { response }
}

extension AdminError: HTTPResponseError {
    /// The admin API's JSON error (``response``): what Hummingbird answers when an admin route throws it.
    package func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
