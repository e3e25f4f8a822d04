import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The admin API's app schema (`GET` and `PUT /admin/app/schema`) and user profiles (`GET`, `PUT` and
/// `PATCH /admin/users/{id}/data`, bodies as ``ProfileBody``'s and ``ETag``s as `/v1/me/data`'s): administrators may
/// write fields users may not edit, and see encrypted fields only as ``AdminProfileView/opaque``.
enum AdminProfileRoutes {
    static func add(to admin: RouterGroup<some RequestContext>, profiles: ProfileService) {
        admin.get("app/schema") { _, _ in
            Responses.json(try await profiles.schema().document, noStore: true)
        }
        admin.put("app/schema") { request, context in
            let schema = try await AdminJSON.decode(AdminAppSchemaRequest.self, from: request).schema()
            do throws(StorageError) {
                try await profiles.replaceSchema(with: schema)
            } catch {
                throw AdminError(error)
            }
            context.logger.notice(
                "Admin API replaced the app schema", metadata: ["fields": "\(schema.fields.count)"])
            return Responses.json(schema.document, noStore: true)
        }
        admin.get("users/:id/data") { _, context in
            let id = try await profiles.existingUser(try context.parameters.path(UserID.self).rawValue)
            let schema = try await profiles.schema()
            let record = try await profiles.profile(userID: id)
            return ProfileRoutes.response(for: record, data: AdminProfileView.shown(record.data, schema: schema))
        }
        admin.put("users/:id/data") { request, context in
            let id = try await profiles.existingUser(try context.parameters.path(UserID.self).rawValue)
            let replacement = try await ProfileBody.replacement(from: request)
            return try await written(
                id, profiles: profiles, ifMatch: request.headers[.ifMatch], logger: context.logger
            ) { current, schema in
                AdminProfileView.resolved(replacement, current: current, schema: schema)
            }
        }
        admin.patch("users/:id/data") { request, context in
            let id = try await profiles.existingUser(try context.parameters.path(UserID.self).rawValue)
            let patch = try await ProfileBody.patch(from: request)
            return try await written(
                id, profiles: profiles, ifMatch: request.headers[.ifMatch], logger: context.logger
            ) { current, schema throws(ProfileError) in
                AdminProfileView.resolved(
                    try ProfileBody.patched(current, with: patch), current: current, schema: schema)
            }
        }
    }

    /// The profile `change` writes for user `id` as an administrator, answered as shown to administrators; the change
    /// is logged through `logger` (the request's, with its request id).
    private static func written(
        _ id: String,
        profiles: ProfileService,
        ifMatch: String?,
        logger: Logger,
        change: (_ current: [String: JSONValue], ProfileSchema) throws(ProfileError) -> [String: JSONValue]
    ) async throws(ProfileError) -> Response {
        let record = try await profiles.write(userID: id, by: .administrator, ifMatch: ifMatch, change: change)
        logger.notice("Admin API changed a profile", metadata: ["sub": "\(id)"])
        let schema = try await profiles.schema()
        return ProfileRoutes.response(for: record, data: AdminProfileView.shown(record.data, schema: schema))
    }
}
