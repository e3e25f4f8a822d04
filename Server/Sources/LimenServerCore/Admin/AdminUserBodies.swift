import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// A user as the admin API shows it: never the password hash, only whether there is one.
package struct AdminUserResource: Encodable, Sendable {
    package var id: String
    package var email: String?
    package var emailVerified: Bool
    package var authLevel: AuthLevel
    package var name: String?
    var hasPassword: Bool
    package var createdAt: Int

    package enum CodingKeys: String, CodingKey {
        case id, email, name
        case emailVerified = "email_verified"
        case authLevel = "auth_level"
        case hasPassword = "has_password"
        case createdAt = "created_at"
    }

    /// The resource of `user`.
    package init(_ user: UserRecord) {
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
package struct AdminUserPage: Encodable, Sendable {
    package var users: [AdminUserResource]
    package var nextAfter: String?

    /// Makes it of its parts.
    package init(users: [AdminUserResource], nextAfter: String? = nil) {
        self.users = users
        self.nextAfter = nextAfter
    }

    package enum CodingKeys: String, CodingKey {
        case users
        case nextAfter = "next_after"
    }
}

extension AdminUserPatch {
    /// The changes the patch asks for.
    package var changes: AccountChanges {
        AccountChanges(name: name, emailVerified: emailVerified, password: password)
    }
}
