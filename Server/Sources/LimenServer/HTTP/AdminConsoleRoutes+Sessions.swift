import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

extension AdminConsoleRoutes {
    /// Adds the users page's form signing the user it names (`id`) out everywhere
    /// (`POST /admin/console/users/revoke-sessions`), by its admin; it answers with the user's page, saying so (`404` for
    /// an unknown user).
    static func addSessionsForm(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        reading: ConsoleUserReading
    ) {
        addForm("/users/revoke-sessions", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let revoked = try await reading.sessions.revokeAll(of: id, origin: submitted.origin)
            if revoked {
                submitted.logger.notice(
                    "An admin signed a user out everywhere in the console", metadata: ["sub": "\(id)"])
            }
            // An unknown user's page is a 404 saying so.
            return try await user(
                id, admin: submitted.admin, root: "../../../", csrf: submitted.csrf, reading: reading,
                message: revoked ? "The user is signed out everywhere." : nil)
        }
    }
}
