import Foundation
import Hummingbird
import LimenServerCore

/// When the server asks DPoP proofs for a nonce: gives every response to a request that carries a proof the current
/// `DPoP-Nonce` (RFC 9449 §8, §9), the refusals `use_dpop_nonce` included and the successes too, so that a client
/// always holds a fresh one.
struct DPoPNonceMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The nonces handed out.
    let nonces: DPoPNonces
    /// The clock.
    let now: @Sendable () -> Date

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = DPoPFields.nonce, !DPoPFields.proofs(in: request).isEmpty else {
            return try await next(request, context)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[name] = nonces.current(at: now())
        return response
    }
}
