import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// A user as the admin API shows it: never the password hash, only whether there is one.
struct AdminUserResource: Encodable, Sendable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var authLevel: AuthLevel
    var name: String?
    var hasPassword: Bool
    var createdAt: Int

    enum CodingKeys: String, CodingKey {
        case id, email, name
        case emailVerified = "email_verified"
        case authLevel = "auth_level"
        case hasPassword = "has_password"
        case createdAt = "created_at"
    }

    /// The resource of `user`.
    init(_ user: UserRecord) {
        id = user.id
        email = user.email
        emailVerified = user.emailVerified
        authLevel = user.authLevel
        name = user.name
        hasPassword = user.passwordHash != nil
        createdAt = Int(user.createdAt.timeIntervalSince1970)
    }
}

/// `GET /admin/users`: one page, and the `after` of the next page when there may be one.
struct AdminUserPage: Encodable, Sendable {
    var users: [AdminUserResource]
    var nextAfter: String?

    enum CodingKeys: String, CodingKey {
        case users
        case nextAfter = "next_after"
    }
}

extension AdminUserPatch {
    /// The changes the patch asks for.
    var changes: AccountChanges {
        AccountChanges(name: name, emailVerified: emailVerified, password: password)
    }
}
