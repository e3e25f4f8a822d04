import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

/// A user's sessions in the admin API, behind the admin token: `GET /admin/users/{id}/sessions` lists their live grants
/// and browser sessions; `POST /admin/users/{id}/revoke-sessions` signs them out everywhere (`204`, recorded as
/// `admin.sessions_revoked`). Both `404` for an unknown user.
enum AdminUserSessionRoutes {
    /// Adds the routes to `admin`: sessions read and ended through `sessions`, from `origin`.
    static func add<Context: RemoteAddressRequestContext>(
        to admin: RouterGroup<Context>,
        store: any UserStore,
        sessions: AdminUserSessions,
        origin: @escaping @Sendable (Request, Context) -> RequestOrigin
    ) {
        admin.get("users/:id/sessions") { _, context in
            let id = try context.parameters.path(UserID.self).rawValue
            guard try await store.user(id: id) != nil else { throw AdminError.notFound("user") }
            return Responses.json(
                encoding: AdminUserSessionsResource(try await sessions.sessions(of: id)), noStore: true)
        }
        admin.post("users/:id/revoke-sessions") { request, context in
            let id = try context.parameters.path(UserID.self).rawValue
            guard try await sessions.revokeAll(of: id, origin: origin(request, context)) else {
                throw AdminError.notFound("user")
            }
            context.logger.notice("Admin API signed a user out everywhere", metadata: ["sub": "\(id)"])
            return Response(status: .noContent)
        }
    }
}
