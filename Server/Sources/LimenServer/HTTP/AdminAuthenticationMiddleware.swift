import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage

/// Guards `/admin`: with no admin token configured every route answers `404` (the API is off); otherwise the request
/// needs `Authorization: Bearer <token>` (RFC 6750 §2.1), refused with `401` and a `Bearer` challenge.
struct AdminAuthenticationMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the token's hash is kept.
    let store: any AdministrationStore

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let stored: Data?
        do {
            stored = try await store.adminTokenHash()
        } catch {
            return AdminError(error).response
        }
        guard let stored else { return Response(status: .notFound) }
        guard let token = BearerChallenge.token(in: request) else { return BearerChallenge.missingToken.response }
        guard AdminToken.matches(token, hash: stored) else { return BearerChallenge.invalidToken.response }
        return try await next(request, context)
    }
}
