import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

/// Disabling and enabling users in the admin API (`POST /admin/users/{id}/disable` and `/enable`, behind the admin
/// token): both answer `204` whether or not the state changed (only a change is recorded, as `admin.user_disabled` or
/// `admin.user_enabled`), `404` for an unknown user.
enum AdminUserDisablementRoutes {
    /// Adds the routes to `admin`: users looked up in `store`, changed through `disablement`, from `origin`.
    static func add<Context: RemoteAddressRequestContext>(
        to admin: RouterGroup<Context>,
        store: any UserStore,
        disablement: AdminUserDisablement,
        origin: @escaping @Sendable (Request, Context) -> RequestOrigin
    ) {
        admin.post("users/:id/disable") { request, context in
            let id = try await existingUser(context, store: store)
            if try await disablement.disable(id, origin: origin(request, context)) {
                context.logger.notice("Admin API disabled a user", metadata: ["sub": "\(id)"])
            }
            return Response(status: .noContent)
        }
        admin.post("users/:id/enable") { request, context in
            let id = try await existingUser(context, store: store)
            if try await disablement.enable(id, origin: origin(request, context)) {
                context.logger.notice("Admin API enabled a user", metadata: ["sub": "\(id)"])
            }
            return Response(status: .noContent)
        }
    }

    /// The subject of the path's user, who must exist.
    private static func existingUser(_ context: some RequestContext, store: any UserStore) async throws -> String {
        let id = try context.parameters.path(UserID.self).rawValue
        guard try await store.user(id: id) != nil else { throw AdminError.notFound("user") }
        return id
    }
}
