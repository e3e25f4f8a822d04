import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage

extension AdminConsoleRoutes {
    /// Adds the read-only views of what is configured: `GET /admin/console/flows` (every flow of `flows`, its nodes in
    /// order with their fields) and `GET /admin/console/schema` (the profile schema's fields, read through
    /// `profiles`).
    static func addConfigurationPages(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        flows: FlowCatalog, profiles: ProfileService
    ) {
        router.get(RouterPath(path + "/flows")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    Pages.consoleFlows(email: admin.email ?? admin.id, root: "../../", flows: flows)
                }
            }
        }
        router.get(RouterPath(path + "/schema")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    Pages.consoleSchema(
                        email: admin.email ?? admin.id, root: "../../",
                        schema: try await profiles.schemas.schema(in: profiles.store))
                }
            }
        }
    }
}
