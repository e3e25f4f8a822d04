import Foundation
import LimenServerStorage

/// The one rule for who may use the admin console (the hosted pages under `/admin/console`), asked by every console
/// page and form. Checked in this order, so that a refusal says nothing it need not:
/// 1. a live browser session of an existing user (``AdminConsoleDecision/signedOut``);
/// 2. the user holds the admin role (``AdminConsoleDecision/notAdmin``, the same for every non-admin);
/// 3. the session's sign-in used a second factor: a one-time code or recovery code after the first step, or a
///    user-verified passkey, which the session keeps as `mfa` (``AdminConsoleDecision/needsSecondFactor``);
/// 4. that sign-in is at most ``maxAge`` old (``AdminConsoleDecision/stale``: sign in again, as for `/account`).
package struct AdminConsoleGate: Sendable {
    /// How long after signing in an admin may use the console: 15 minutes.
    package static let maxAge: TimeInterval = 15 * 60

    /// Who holds the admin role.
    package let roles: AdminRoles
    /// Where the users are kept.
    package let users: any UserStore
    /// The clock.
    package let now: @Sendable () -> Date

    /// A gate reading roles through `roles` and users from `users`.
    package init(roles: AdminRoles, users: any UserStore, now: @escaping @Sendable () -> Date) {
        (self.roles, self.users, self.now) = (roles, users, now)
    }

    /// Whether the person signed in with `session` (`nil`: no live session) may use the console now.
    package func decide(session: BrowserSessionRecord?) async throws(StorageError) -> AdminConsoleDecision {
        guard let session, let user = try await users.user(id: session.subject) else { return .signedOut }
        guard try await roles.isAdmin(user.id) else { return .notAdmin(user) }
        guard session.methods.contains(.multipleFactors) else { return .needsSecondFactor(user) }
        guard now().timeIntervalSince(session.authTime) <= Self.maxAge else { return .stale(user) }
        return .allowed(user)
    }
}

/// What ``AdminConsoleGate`` decided about a browser session.
package enum AdminConsoleDecision: Sendable, Equatable {
    /// No live session (or its user is gone): sign in first.
    case signedOut
    /// The user holds no admin role.
    case notAdmin(UserRecord)
    /// An admin whose sign-in used no second factor: they enrol one at `/account` and sign in with it.
    case needsSecondFactor(UserRecord)
    /// An admin whose sign-in is older than ``AdminConsoleGate/maxAge``: they sign in again.
    case stale(UserRecord)
    /// An admin may use the console.
    case allowed(UserRecord)
}
