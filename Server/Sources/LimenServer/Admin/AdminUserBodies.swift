import Foundation

/// `POST /admin/users`: an account with a password, created through ``Accounts/signUp(email:password:name:emailVerified:)``.
package struct AdminUserRequest: AdminRequestBody, Sendable {
    package typealias Members = CodingKeys

    var email: String
    var password: String
    var name: String?
    var emailVerified: Bool?

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password, name
        case emailVerified = "email_verified"
    }
}

/// A user as the admin API shows it: never the password hash, only whether there is one.
struct AdminUserResource: Encodable, Sendable {
    var id: String
    var email: String
    var emailVerified: Bool
    var name: String?
    var hasPassword: Bool
    var createdAt: Int

    enum CodingKeys: String, CodingKey {
        case id, email, name
        case emailVerified = "email_verified"
        case hasPassword = "has_password"
        case createdAt = "created_at"
    }

    /// The resource of `user`.
    init(_ user: UserRecord) {
        id = user.id
        email = user.email
        emailVerified = user.emailVerified
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

/// `PATCH /admin/users/:id`, a JSON merge patch (RFC 7396) of `name`, `email_verified` and `password`: an absent member
/// stays as it is; `"name": null` removes the name. Any other member is refused (by ``AdminJSON``), so a typo never
/// passes silently.
package struct AdminUserPatch: AdminRequestBody, Sendable {
    package typealias Members = CodingKeys
    var changes: AccountChanges

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case name, password
        case emailVerified = "email_verified"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changes = AccountChanges(
            name: try container.contains(.name) ? .some(container.decodeIfPresent(String.self, forKey: .name)) : nil,
            emailVerified: try container.decodeIfPresent(Bool.self, forKey: .emailVerified),
            password: try container.decodeIfPresent(String.self, forKey: .password)
        )
    }
}
