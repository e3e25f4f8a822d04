import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

extension AdminConsoleRoutes {
    /// Adds the keys page (`GET /admin/console/keys`: the signing keys with their states, and a form rotating them) and
    /// its form (`POST /admin/console/keys/rotate`), which rotates through `keys` as the admin API does, by the admin,
    /// and answers with the keys page saying so.
    static func addKeyPages(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        keys: AdminKeys
    ) {
        router.get(RouterPath(path + "/keys")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    Pages.consoleKeys(
                        email: admin.email ?? admin.id, root: "../../", keys: keys.list(), csrf: csrf(browser))
                }
            }
        }
        addForm("/keys/rotate", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            try await outcome { () throws(AdminError) in
                try await keys.rotate(origin: submitted.origin)
            } page: { _ throws(StorageError) in
                submitted.logger.notice("An admin rotated the signing keys in the console")
                return Pages.consoleKeys(
                    email: submitted.email, root: "../../../", keys: keys.list(), csrf: submitted.csrf,
                    message: "New keys are published; they sign in an hour, when the keys they replace retire.")
            }
        }
    }
}
