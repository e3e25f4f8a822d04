import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

extension AdminConsoleRoutes {
    /// Adds the users page's forms disabling (`POST /admin/console/users/disable`) and enabling
    /// (`/users/enable`) the user they name (`id`), by their admin; each answers with the user's page, saying so.
    static func addDisablementForms(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        reading: ConsoleUserReading
    ) {
        addForm("/users/disable", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let changed = try await reading.disablement.disable(id, origin: submitted.origin)
            if changed {
                submitted.logger.notice("An admin disabled a user in the console", metadata: ["sub": "\(id)"])
            }
            return try await user(
                id, admin: submitted.admin, root: "../../../", csrf: submitted.csrf, reading: reading,
                message: changed ? "The user is disabled." : nil)
        }
        addForm("/users/enable", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let changed = try await reading.disablement.enable(id, origin: submitted.origin)
            if changed { submitted.logger.notice("An admin enabled a user in the console", metadata: ["sub": "\(id)"]) }
            return try await user(
                id, admin: submitted.admin, root: "../../../", csrf: submitted.csrf, reading: reading,
                message: changed ? "The user is enabled." : nil)
        }
    }
}

/// What the console's users page reads a user through: the store behind `responder`, their roles, whether they are
/// disabled, their sessions, and their events.
struct ConsoleUserReading: Sendable {
    /// The sign-in responder, whose store holds the users and identities.
    var responder: SignInResponder
    /// The admin roles.
    var roles: AdminRoles
    /// Disabled users.
    var disablement: AdminUserDisablement
    /// The users' sessions.
    var sessions: AdminUserSessions
    /// The security events.
    var events: any SecurityEventStore
}

/// A found user as the users page shows them: the record, whether they are an admin and disabled, and their sessions.
struct ConsoleUserState {
    /// The user.
    var user: UserRecord
    /// Whether they hold the admin role.
    var isAdmin: Bool
    /// Whether an admin disabled them.
    var isDisabled: Bool
    /// Their live sessions.
    var sessions: AdminUserSessions.Sessions
}
